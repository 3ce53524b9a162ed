import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { addNavigationView, editNavigationView, removeNavigationView } from '../navigation-views.js';

export function doAddNavigationView(tx: Tx, actor: ActorContext, params: ParamsOf<'add-navigation-view'>): void {
  addNavigationView(tx, actor, params);
}

export function doEditNavigationView(tx: Tx, actor: ActorContext, params: ParamsOf<'edit-navigation-view'>): void {
  editNavigationView(tx, actor, params);
}

export function doRemoveNavigationView(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-navigation-view'>): void {
  removeNavigationView(tx, actor, params.fragment);
}
