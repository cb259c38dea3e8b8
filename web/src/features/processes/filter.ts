/** The Spheres search (spec 1 section 2): by name (case-insensitive substring, from 2 characters) or by tag. */
import { LIMITS, type ProcessDTO } from '@domain';

export type SearchMode = 'name' | 'tag';

export interface ProcessSearch {
  mode: SearchMode;
  text: string;
  tagId: number | null;
}

export const EMPTY_SEARCH: ProcessSearch = { mode: 'name', text: '', tagId: null };

export function isSearchActive(search: ProcessSearch): boolean {
  return search.mode === 'name' ? search.text.trim().length >= LIMITS.textFilterMin : search.tagId !== null;
}

export function filterProcesses(processes: readonly ProcessDTO[], search: ProcessSearch): ProcessDTO[] {
  if (!isSearchActive(search)) return [...processes];
  if (search.mode === 'name') {
    const needle = search.text.trim().toLowerCase();
    return processes.filter((p) => p.name.toLowerCase().includes(needle));
  }
  return processes.filter((p) => p.processTags.some((t) => t.id === search.tagId));
}
