/** A show/hide button; its state comes from the caller (features use store/use-toggle.ts). */
export function ToggleButton({ open, onChange, show, hide, controls }: { open: boolean; onChange(value: boolean): void; show: string; hide: string; controls?: string }) {
  return (
    <button type="button" className="link-button" aria-expanded={open} aria-controls={controls} onClick={() => onChange(!open)}>
      <span aria-hidden="true">{open ? '▾' : '▸'}</span> {open ? hide : show}
    </button>
  );
}
