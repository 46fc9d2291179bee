// Style sheets are bundled by esbuild into app.css; importing one only adds it to the bundle.
declare module '*.css';
