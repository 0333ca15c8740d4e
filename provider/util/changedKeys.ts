/** The keys of `keys` whose values differ between two property bags (compared as JSON). */
export function changedKeys<T extends object>(olds: T, news: T, keys: readonly (keyof T)[]): (keyof T)[] {
  return keys.filter((key) => JSON.stringify(olds[key]) !== JSON.stringify(news[key]));
}
