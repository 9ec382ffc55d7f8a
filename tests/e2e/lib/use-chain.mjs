// The fixture sites and the whole chain (tests/e2e/lib/chain.mjs) for one test file: started
// before its first test, closed after its last. `set` receives them once they are up.
//   let sites, chain;
//   useChain((s, c) => { sites = s; chain = c; });
import { after, before } from 'node:test';
import { startSites } from '../../sites/serve.mjs';
import { startChain } from './chain.mjs';

/**
 * @param {(sites: any, chain: any) => void} set
 * @param {Parameters<typeof startChain>[0]} [opts] startChain's options
 */
export function useChain(set, opts) {
  /** @type {any} */ let sites;
  /** @type {any} */ let chain;
  before(async () => {
    sites = await startSites();
    chain = await startChain(opts);
    set(sites, chain);
  });
  after(async () => {
    await chain?.close();
    await sites?.close();
  });
}
