// The soong-plans pack's model: a plan file is only its name (the content is ordinary Markdown, not judged).
import type { PackFile, PackWorkspace } from '../types.js';

export const PACK_ID = 'soong-plans';

/** The folder the soong agent core writes plans into (repository-relative). */
export const SOONG_PLANS_DIR = '.soong-agent/plans/';

/** A plan file: its name relative to the plans folder (a `/` in it means a subfolder). */
export interface SoongPlanModel {
  name: string;
}

/** The soong-plans files of a workspace. */
export function planFiles(packs: PackWorkspace): PackFile<SoongPlanModel>[] {
  return (packs.get(PACK_ID) ?? []) as PackFile<SoongPlanModel>[];
}
