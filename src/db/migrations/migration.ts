/** One numbered schema change; its own file so that each migration and the ordered list (index.ts) import no cycle. */
export interface Migration {
  id: string;
  sql: string;
}
