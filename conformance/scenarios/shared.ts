import type { ScenarioContext } from '../src/context.js';

/** Reading JSON answers in scenarios of every area: objects, lists of objects and integers, tolerant of wrong shapes (the checks report those). */
export type Obj = Record<string, unknown>;
export const asObject = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const asArray = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asObject) : []);
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** One channel as an administrator sees it (GET /api/v1/streams/{id}, a companion operation). */
export async function readChannel(ctx: ScenarioContext, streamId: number): Promise<Obj> {
  const res = ctx.must(await ctx.as('administrator').get(`/api/v1/streams/${streamId}`), `read channel ${streamId}`);
  return res.body.stream as Obj;
}
