import type { AppContext } from '../app-context.js';
import { DEMO_SIZE, SIZE_FIELDS } from '../fixtures/size.js';
import type { Control } from './control.js';

/** The default realm exists after start-up: restored from the state file, or made from its fixture. */
export async function ensureDefaultRealm(control: Control, context: AppContext): Promise<void> {
  const { config, store } = context;
  const existing = store.realm(config.defaultRealm);
  const asked = {
    realm_id: config.defaultRealm,
    fixture: config.fixture,
    seed: config.seed,
    feature_level: config.featureLevel,
    ...config.size,
  };
  if (!existing) {
    await control.createRealm(asked);
    return;
  }
  const realm = existing.realm.realm;
  if (config.reset) {
    await control.createRealm({ ...asked, replace: true });
    return;
  }
  // Restarting on a state file restores every realm as it was; only an explicit --reset regenerates it.
  if (realm.fixture !== config.fixture || realm.seed !== config.seed) {
    console.warn(
      `teamchat-kit: realm '${realm.id}' in the state file was made from ${realm.fixture} seed ${realm.seed}; keeping it (use --reset to regenerate).`,
    );
  }
  const stored = realm.size ?? DEMO_SIZE;
  if (config.size && SIZE_FIELDS.some((f) => (config.size![f] ?? DEMO_SIZE[f]) !== stored[f])) {
    console.warn(
      `teamchat-kit: realm '${realm.id}' in the state file has ${stored.messages} messages, ${stored.users} users and ${stored.channels} channels; keeping it (use --reset to regenerate at the size asked for).`,
    );
  }
  if (config.epoch !== undefined && realm.epoch !== config.epoch) {
    console.warn(
      `teamchat-kit: realm '${realm.id}' in the state file keeps its own time; --epoch applies to new realms (use --reset to regenerate it at the epoch).`,
    );
  }
  if (config.featureLevel !== undefined && realm.feature_level !== config.featureLevel)
    await control.setFeatureLevel(config.defaultRealm, config.featureLevel);
}
