// The order in which modules run, and a live binding: `count` changes after importers
// have imported it.
export const order = [];
export let count = 0;
export function log(what) {
  order.push(what);
  count++;
}
log('log');
