// A labelled select of fixed choices, each with the value sent and the text shown.

export interface Choice {
  readonly value: string;
  readonly label: string;
}

export function SelectField(props: {
  label: string;
  testId: string;
  value: string;
  choices: readonly Choice[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {props.label}
      <select
        data-testid={props.testId}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}
