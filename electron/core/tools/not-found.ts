/**
 * "Not found" errors that help the model recover: a file it guessed wrong is usually a sibling
 * with another extension or another case, so the nearest existing folder's similar names are
 * offered.
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { ToolError } from '../agent/types';

const MAX_SUGGESTIONS = 3;

function stem(name: string): string {
  return basename(name, extname(name)).toLowerCase();
}

/** `given` is the path as the model wrote it; `absolute` its resolved location. */
export async function notFoundError(given: string, absolute: string): Promise<ToolError> {
  const wanted = basename(absolute);
  let names: string[] = [];
  try {
    names = await fs.readdir(dirname(absolute));
  } catch {
    return ToolError.notFound(`${given} does not exist (nor does its folder); use list_files to see what exists`);
  }
  const similar = names
    .filter((name) => name !== wanted && (name.toLowerCase() === wanted.toLowerCase() || stem(name) === stem(wanted)))
    .sort()
    .slice(0, MAX_SUGGESTIONS);
  const folderOfGiven = given.includes('/') ? given.slice(0, given.lastIndexOf('/') + 1) : '';
  const hint = similar.length > 0 ? `; did you mean ${similar.map((name) => folderOfGiven + name).join(' or ')}?` : '; use list_files to see what exists';
  return ToolError.notFound(`${given} does not exist${hint}`);
}
