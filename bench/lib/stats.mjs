// Small statistics the benchmarks share.

/** The lower median (an observed value, never an average of two); NaN for none. @param {number[]} xs */
export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN; };
