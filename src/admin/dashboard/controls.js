/**
 * What the header does: the simulator's version and health, the global chaos profile, and reset.
 */
import * as api from './api.js';
import { setMode } from './connection.js';
import { forgetTasks, setServerTime, state } from './state.js';
import { closeTask, resync } from './tasks.js';
import { setResetBusy, showChaos, showError, showVersion } from './views/header.js';
import { scheduleRender } from './views/render.js';

/** The version and the server's clock; a simulator that does not answer makes the dashboard offline. */
export async function loadHealth() {
  try {
    const health = await api.getHealth();
    showVersion(health.version);
    if (health.now) setServerTime(health.now);
    if (state.connection.mode === 'offline') setMode(state.connection.feed ? 'live' : 'polling');
  } catch {
    setMode('offline');
  }
}

export async function loadChaos() {
  showChaos(await api.getChaos());
}

/** Sets the global chaos profile; `''` for none. */
export async function changeChaos(/** @type {string} */ profile) {
  try {
    await api.putChaos(profile || null);
  } catch (error) {
    showError(error);
  }
  await loadChaos().catch(showError);
}

export async function reset() {
  setResetBusy(true);
  try {
    await api.postReset();
    forgetTasks();
    closeTask(false);
    scheduleRender();
    await resync();
  } catch (error) {
    showError(error);
  } finally {
    setResetBusy(false);
  }
}
