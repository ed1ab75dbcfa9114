// Reading a soong-plans file: every file under `.soong-agent/plans/` is read (so broken names are seen); the model
// is its name relative to the folder.
import type { PackFile } from '../types.js';
import { PACK_ID, SOONG_PLANS_DIR, type SoongPlanModel } from './model.js';

export function read(path: string): PackFile<SoongPlanModel> {
  return {
    pack: PACK_ID,
    path,
    model: { name: path.startsWith(SOONG_PLANS_DIR) ? path.slice(SOONG_PLANS_DIR.length) : path },
    problems: [],
  };
}
