// The user-grid fixture's rows (tests/sites/user-grid.html), generated the same on every load: a
// fixed-seed generator, so the flows (bench/lib/flows-def.mjs) can name the rows a sort brings to the
// top and the count a filter leaves. Two rows are planted mid-list, out of the first screen, so
// only a sort brings them into view: "Aaron Abbott" sorts first by name, "Zoe Zimmerman" last.

export const USER_COUNT = 300;
const FIRST = ['Ada', 'Alan', 'Barbara', 'Claude', 'Dorothy', 'Edsger', 'Frances', 'Grace', 'Hedy', 'Ivan', 'Joan',
  'Ken', 'Leslie', 'Margaret', 'Niklaus', 'Radia', 'Sophie', 'Tim', 'Ursula', 'Vint', 'Whitfield', 'Yukihiro'];
const LAST = ['Babbage', 'Cerf', 'Diffie', 'Engelbart', 'Floyd', 'Goldberg', 'Hamilton', 'Kay', 'Lamport', 'Liskov',
  'McCarthy', 'Naur', 'Perlman', 'Ritchie', 'Shannon', 'Thompson', 'Wirth', 'Wing'];
const ROLES = ['Viewer', 'Editor', 'Admin', 'Billing'];
const CITIES = ['Amsterdam', 'Berlin', 'Dublin', 'Lisbon', 'Madrid', 'Oslo', 'Porto', 'Prague', 'Vienna', 'Warsaw'];
const PLANTED = { 150: ['Aaron', 'Abbott'], 220: ['Zoe', 'Zimmerman'] };

/** A small deterministic PRNG (mulberry32). @param {number} seed */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** @returns {{id: number, name: string, email: string, role: string, city: string, joined: string, orders: number}[]} */
export function makeUsers() {
  const r = random(28);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const users = [];
  for (let i = 0; i < USER_COUNT; i++) {
    const [first, last] = PLANTED[i] ?? [pick(FIRST), pick(LAST)];
    const day = new Date(Date.UTC(2021, 0, 1) + Math.floor(r() * 1400) * 86_400_000).toISOString().slice(0, 10);
    users.push({
      id: 1000 + i, name: `${first} ${last}`, email: `${first}.${last}${i}@example.com`.toLowerCase(),
      role: pick(ROLES), city: pick(CITIES), joined: day, orders: Math.floor(r() * 120),
    });
  }
  return users;
}
