import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, isInt, type Obj } from '../shared.js';

/** Helpers of the live area's scenarios (typing, presence, uploads; companion tier). */

export const PLAIN = 'text/plain';

/** Uploads one small text file as `who` (setup); the attachment is deleted after the scenario. */
export async function uploadText(
  ctx: ScenarioContext,
  who: WorldRole,
  content: string,
): Promise<{ url: string; reply: Reply; id: number }> {
  const reply = ctx.must(
    await ctx.as(who).upload('/api/v1/user_uploads', [{ name: 'conformance.txt', type: PLAIN, content }]),
    'upload a file',
  );
  const url = reply.body.url ?? reply.body.uri;
  if (typeof url !== 'string' || !url.includes('/user_uploads/')) throw new SetupError(`upload answered url ${JSON.stringify(url)}`);
  const attachment = await attachmentOf(ctx, who, url);
  if (!attachment || !isInt(attachment.id)) throw new SetupError('the uploaded file is not in GET /attachments');
  const id = attachment.id;
  ctx.defer(() => ctx.as(who).delete(`/api/v1/attachments/${id}`));
  return { url, reply, id };
}

/** The path of a file URL on the target (the answer may be relative, as the reference's is). */
export const pathOf = (url: string) => url.slice(url.indexOf('/user_uploads/'));

/** The attachment of `who` whose path_id the URL ends with, from GET /attachments. */
export async function attachmentOf(ctx: ScenarioContext, who: WorldRole, url: string): Promise<Obj | undefined> {
  const list = ctx.must(await ctx.as(who).get('/api/v1/attachments'), 'list attachments');
  const path = decodeURIComponent(pathOf(url).slice('/user_uploads/'.length));
  return asArray(list.body.attachments).find((a) => a.path_id === path);
}

/** A world role subscribed to the channel, other than `not`. */
export function subscriberOf(ctx: ScenarioContext, kind: 'public' | 'public_2', not: WorldRole): WorldRole {
  const found = ctx.channel(kind).subscribers.find((r) => r !== not && r !== 'bot' && r !== 'guest' && ctx.world.credentials[r]);
  if (!found) throw new SetupError(`the world's ${kind} channel has no other human subscriber`);
  return found;
}

/** A human world role not subscribed to the channel. */
export function outsiderOf(ctx: ScenarioContext, kind: 'public' | 'public_2'): WorldRole {
  const subs = ctx.channel(kind).subscribers;
  const found = (['member_3', 'guest', 'member_2', 'moderator'] as WorldRole[]).find((r) => ctx.world.credentials[r] && !subs.includes(r));
  if (!found) throw new SetupError(`every human of the world is subscribed to ${kind}`);
  return found;
}

export const isPositiveInt = (v: unknown) => isInt(v) && v > 0;
