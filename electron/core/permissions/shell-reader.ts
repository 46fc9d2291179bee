/**
 * The walk over bash's syntax tree that collects the simple commands a line would run
 * (shell-syntax.ts parses and checks the text first). Each kind of node it understands has its
 * case; any other is noted as unreadable, so the caller asks.
 */
import type { Node } from 'web-tree-sitter';
import { literalWord, readWord, type Placement, type Word } from './shell-words';
import type { ParsedCommand, Redirect, SimpleCommand } from './shell-syntax';

const STATEMENT_CONTAINERS = new Set(['program', 'list', 'do_group', 'else_clause', 'elif_clause', 'case_item']);

export class Reader {
  constructor(
    private readonly parsed: ParsedCommand,
    private readonly placement: Placement,
  ) {}

  private unreadable(reason: string): void {
    this.parsed.unreadable.push(reason);
  }

  private word(node: Node): Word {
    const word = readWord(node, this.placement);
    this.parsed.unreadable.push(...word.unreadable);
    return word;
  }

  /** The statements below a container; `piped` for the first when its input is a pipe. */
  statements(node: Node, piped: boolean): void {
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      this.statement(child, piped);
    }
  }

  statement(node: Node, piped: boolean, redirects: Redirect[] = []): void {
    const type = node.type;
    if (STATEMENT_CONTAINERS.has(type)) return this.statements(node, piped);
    switch (type) {
      case 'command':
        return this.command(node, piped, redirects);
      case 'pipeline': {
        let first = true;
        for (const child of node.namedChildren) {
          if (!child) continue;
          this.statement(child, piped || !first);
          first = false;
        }
        return;
      }
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const own = node
          .childrenForFieldName('redirect')
          .filter((child): child is Node => child !== null)
          .map((child) => this.redirect(child));
        const extra = node.childrenForFieldName('redirect').flatMap((child) => (child ? this.extraWords(child) : []));
        if (body?.type === 'command') this.command(body, piped, [...redirects, ...own], extra);
        else {
          if (extra.length > 0) this.unreadable('gives words after the redirection of a group, which Cove does not read');
          // A group's redirections apply to all of it: judged on their own, as a bare `> file` is.
          this.parsed.commands.push({ assignments: [], words: [], redirects: own, piped, keyword: null });
          if (body) this.statement(body, piped);
        }
        for (const child of node.childrenForFieldName('redirect')) if (child) this.afterHeredoc(child);
        return;
      }
      case 'subshell':
      case 'negated_command':
        return this.statements(node, piped);
      case 'compound_statement':
        if (node.text.startsWith('((')) return this.arithmeticCommand(node);
        return this.statements(node, piped);
      case 'if_statement':
      case 'while_statement':
        return this.statements(node, false);
      case 'for_statement': {
        const values = node
          .childrenForFieldName('value')
          .filter((child): child is Node => child !== null)
          .map((child) => this.word(child));
        const binds = node.childForFieldName('variable')?.text;
        this.parsed.commands.push({ assignments: [], words: values, redirects: [], piped: false, keyword: 'for', binds });
        const body = node.childForFieldName('body');
        if (body) this.statements(body, false);
        return;
      }
      case 'case_statement': {
        const value = node.childForFieldName('value');
        if (value) this.parsed.commands.push({ assignments: [], words: [this.word(value)], redirects: [], piped: false, keyword: 'case' });
        for (const item of node.namedChildren) if (item?.type === 'case_item') this.caseItem(item);
        return;
      }
      case 'test_command':
        return this.test(node);
      case 'variable_assignment':
        this.parsed.commands.push({ assignments: [this.word(node)], words: [], redirects, piped, keyword: null });
        return this.assignmentValue(node);
      case 'variable_assignments':
        for (const child of node.namedChildren) if (child) this.statement(child, piped, redirects);
        return;
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, piped, redirects);
      case 'function_definition': {
        this.unreadable('defines a shell function, which runs later under a name of its own');
        const body = node.childForFieldName('body');
        if (body) this.statement(body, false);
        return;
      }
      case 'c_style_for_statement':
        return this.arithmeticCommand(node);
      default:
        this.unreadable(`uses ${type.replace(/_/g, ' ')} syntax, which Cove does not read`);
    }
  }

  private caseItem(item: Node): void {
    for (const child of item.namedChildren) {
      if (!child) continue;
      if (item.childrenForFieldName('value').some((value) => value?.id === child.id)) this.word(child);
      else this.statement(child, false);
    }
  }

  private arithmeticCommand(node: Node): void {
    if (/[A-Za-z_$`]/.test(node.text.replace(/^for\s*/, ''))) this.unreadable('uses arithmetic on a variable, which bash evaluates as code');
  }

  private test(node: Node): void {
    const words: Word[] = [];
    let numeric = false;
    const visit = (current: Node) => {
      for (const child of current.namedChildren) {
        if (!child) continue;
        if (child.type === 'test_operator') numeric ||= /^-(eq|ne|lt|le|gt|ge)$/.test(child.text);
        else if (['binary_expression', 'unary_expression', 'parenthesized_expression', 'negated_expression'].includes(child.type)) visit(child);
        else if (child.type === 'regex') continue;
        else words.push(this.word(child));
      }
    };
    visit(node);
    // `-eq` and its kin evaluate both sides as arithmetic, where `a[$(cmd)]` runs cmd.
    if (numeric && words.some((word) => word.pieces.some((piece) => piece.kind !== 'text'))) {
      this.unreadable('compares numbers in [[ … ]], which evaluates variables as code');
    }
    this.parsed.commands.push({ assignments: [], words, redirects: [], piped: false, keyword: 'test' });
  }

  private assignmentValue(node: Node): void {
    const value = node.childForFieldName('value');
    const name = node.childForFieldName('name');
    if (name?.type === 'subscript') this.unreadable('assigns to an array subscript, which bash evaluates as arithmetic');
    if (value?.type === 'array') for (const element of value.namedChildren) if (element) this.word(element);
  }

  private declaration(node: Node, piped: boolean, redirects: Redirect[]): void {
    const words = [literalWord(node.child(0)?.text ?? 'declare')];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') this.assignmentValue(child);
      words.push(this.word(child));
    }
    this.parsed.commands.push({ assignments: [], words, redirects, piped, keyword: null });
  }

  /**
   * tree-sitter-bash reads `cmd >f a b` as a redirection with three destinations; bash gives
   * `a b` to the command. The words after the first destination are the command's arguments.
   */
  private extraWords(node: Node): Word[] {
    if (node.type !== 'file_redirect') return [];
    return node
      .childrenForFieldName('destination')
      .slice(1)
      .filter((child): child is Node => child !== null)
      .map((child) => this.word(child));
  }

  private command(node: Node, piped: boolean, outer: Redirect[], trailing: Word[] = []): void {
    const command: SimpleCommand = { assignments: [], words: [], redirects: [...outer], piped, keyword: null };
    const extra: Word[] = [];
    for (let index = 0; index < node.childCount; index++) {
      const child = node.child(index);
      if (!child || !child.isNamed) continue;
      const field = node.fieldNameForChild(index);
      if (child.type === 'variable_assignment') {
        command.assignments.push(this.word(child));
        this.assignmentValue(child);
      } else if (child.type.endsWith('_redirect')) {
        command.redirects.push(this.redirect(child));
        extra.push(...this.extraWords(child));
        this.afterHeredoc(child);
      } else if (field === 'name' || field === 'argument') command.words.push(this.word(child));
      else if (child.type !== 'comment') this.unreadable(`uses ${child.type.replace(/_/g, ' ')} syntax, which Cove does not read`);
    }
    // `>f cmd a` names the command after the redirection: its first extra word is the name.
    command.words.push(...extra, ...trailing);
    this.parsed.commands.push(command);
  }

  private redirect(node: Node): Redirect {
    const fd = node.childForFieldName('descriptor')?.text ?? null;
    if (node.type === 'heredoc_redirect') {
      const start = node.namedChildren.find((child) => child?.type === 'heredoc_start');
      const body = node.namedChildren.find((child) => child?.type === 'heredoc_body');
      const delimiter = start?.text ?? '';
      // A delimiter bash reads differently than the grammar (a backslash, a newline in it) could end the document early.
      if (/[\\\n]/.test(delimiter.replace(/^(["'])(.*)\1$/s, '$2'))) this.unreadable('uses a here-document delimiter with a backslash, which Cove does not read');
      const quoted = /["'\\]/.test(delimiter);
      return { op: node.child(0)?.text ?? '<<', fd, target: null, duplicates: false, heredoc: { quoted, body: body && !quoted ? this.word(body) : null } };
    }
    const operator = node.children.find((child) => child && !child.isNamed)?.text ?? '';
    const destination = node.childrenForFieldName('destination').find((child) => child !== null) ?? node.namedChildren.find((child) => child && child.type !== 'file_descriptor') ?? null;
    const target = destination ? this.word(destination) : null;
    const duplicates = (operator === '>&' || operator === '<&') && (target === null || /^(\d+|-)$/.test(target.value));
    return { op: node.type === 'herestring_redirect' ? '<<<' : operator, fd, target, duplicates: duplicates || target === null, heredoc: null };
  }

  /** `cat <<EOF | sh`: the grammar keeps the rest of the line inside the here-document node. */
  private afterHeredoc(node: Node): void {
    if (node.type !== 'heredoc_redirect') return;
    for (const child of node.namedChildren) {
      if (!child || ['heredoc_start', 'heredoc_body', 'heredoc_end', 'file_descriptor'].includes(child.type)) continue;
      this.statement(child, true);
    }
  }
}
