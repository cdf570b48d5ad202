/** Reading Steward's report pages the way a person sees them: tables and headline figures. */

/** The text of an HTML fragment, entities decoded. */
export const text = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** The body rows of `<table data-table="id">`: each cell's exact `data-value` when it has one, else its text. */
export function table(html: string, id: string): string[][] {
  const match = new RegExp(`<table data-table="${id}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html);
  if (!match) throw new Error(`no table ${id}`);
  return [...match[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)]
    .map((row) =>
      [...row[1]!.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)].map(
        ([, attributes, content]) => /data-value="([^"]*)"/.exec(attributes!)?.[1] ?? text(content!),
      ),
    )
    .filter((cells) => !(cells.length === 1 && cells[0] === 'No rows.'));
}

/** A headline figure: its exact value when it has one, else its text. */
export function figure(html: string, id: string): string {
  const match = new RegExp(`<li data-figure="${id}"(?: data-value="([^"]*)")?><strong>([^<]*)</strong>`).exec(
    html,
  );
  if (!match) throw new Error(`no figure ${id}`);
  return match[1] ?? text(match[2]!);
}
