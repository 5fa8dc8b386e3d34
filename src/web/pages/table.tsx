/** A table's column headings, the one shape every table of the console starts with. */
export function TableHead(props: { columns: readonly string[] }): preact.JSX.Element {
  return (
    <thead>
      <tr>
        {props.columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
