// A labelled number input whose text is kept as typed (the form reads and checks it when sent).

export function NumberField({
  label,
  value,
  onInput,
  min,
  max,
  testId,
}: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  min?: number;
  max?: number;
  testId?: string;
}) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={min}
        max={max}
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
        data-testid={testId}
      />
    </label>
  );
}
