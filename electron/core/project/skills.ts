/**
 * Skills: `.cove/skills/<name>/SKILL.md` in a workspace, each a named set of instructions the
 * agent loads only when it needs them. The system prompt lists their names and descriptions;
 * the `skill` tool returns one skill's full text (and the files beside it) on demand.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolError } from '../agent/types';
import { declareTool } from '../tools/define-tool';
import { DEFINITION_NAME } from './definition-files';
import { parseFrontMatter, stringField } from './front-matter';

export interface Skill {
  name: string;
  description: string;
  dir: string;
  file: string;
}

const MAX_SKILL_BYTES = 256 * 1024;

export function loadSkills(roots: readonly string[]): { skills: Skill[]; problems: string[] } {
  const skills = new Map<string, Skill>();
  const problems: string[] = [];
  for (const root of roots) {
    const base = join(root, '.cove', 'skills');
    let names: string[];
    try {
      names = readdirSync(base).sort();
    } catch {
      continue;
    }
    for (const folder of names) {
      const file = join(base, folder, 'SKILL.md');
      let text: string;
      try {
        if (statSync(file).size > MAX_SKILL_BYTES) {
          problems.push(`${file}: larger than ${MAX_SKILL_BYTES} bytes; skipped`);
          continue;
        }
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      try {
        const parsed = parseFrontMatter(text, file);
        const name = stringField(parsed, 'name') ?? folder;
        if (!DEFINITION_NAME.test(name)) {
          problems.push(`${file}: the skill name '${name}' may use letters, digits, '.', '_' and '-' only`);
          continue;
        }
        if (skills.has(name)) continue;
        const description =
          stringField(parsed, 'description') ??
          parsed.body
            .split('\n')
            .find((line) => line.trim())
            ?.trim() ??
          '';
        skills.set(name, { name, description, dir: join(base, folder), file });
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  return { skills: [...skills.values()], problems };
}

export function skillsSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  return `Skills are available; when one fits the task, load it with the skill tool before you start:\n${lines.join('\n')}`;
}

const skillTool = declareTool({
  name: 'skill',
  label: 'Load skill',
  description: 'Loads the full instructions of a skill by name.',
  schema: z.strictObject({ name: z.string().describe('The skill to load') }),
  sensitivity: 'readOnly',
  kind: 'read',
  permission: { name: (args) => args.name },
  summary: (args) => args.name,
});

export function createSkillTool(skills: readonly Skill[]) {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return skillTool.implement(
    async ({ name }) => {
      const skill = byName.get(name);
      if (!skill) throw ToolError.notFound(`No skill named '${name}'. Available: ${[...byName.keys()].join(', ') || 'none'}`);
      const { body } = parseFrontMatter(readFileSync(skill.file, 'utf8'), skill.file);
      const others = readdirSync(skill.dir)
        .filter((entry) => entry !== 'SKILL.md')
        .sort()
        .slice(0, 50);
      const listing = others.length > 0 ? `\n\nFiles beside this skill (read them with read_file if needed), in ${skill.dir}:\n${others.map((o) => `- ${o}`).join('\n')}` : '';
      return { content: [{ type: 'text', text: `# Skill: ${skill.name}\n\n${body}${listing}` }], details: { skill: skill.name, file: skill.file } };
    },
    { description: `Loads the full instructions of a skill by name. Available: ${skills.map((s) => s.name).join(', ')}.` },
  );
}
