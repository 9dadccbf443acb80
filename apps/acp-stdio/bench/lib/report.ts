/** The benchmark's one table: a row per figure, median next to its baseline, ratio, target, verdict. */
import { median } from "./stats.js";

export type Target = {
  /** What the target bounds: the figure itself or its ratio to the baseline. */
  readonly on: "value" | "ratio";
  readonly max: number;
};

export type Row = {
  readonly id: string;
  readonly figure: string;
  readonly unit: string;
  readonly samples: readonly number[];
  readonly value: number;
  readonly baseline?: { readonly label: string; readonly samples: readonly number[]; readonly value: number };
  readonly ratio?: number;
  readonly targets: readonly Target[];
  /** undefined when the row has no target. */
  readonly met?: boolean;
  readonly note?: string;
};

export const row = (spec: {
  id: string;
  figure: string;
  unit: string;
  samples: readonly number[];
  value?: number;
  baseline?: { label: string; samples: readonly number[]; value?: number };
  targets?: readonly Target[];
  note?: string;
  /** The baseline is context, not a floor to divide by. */
  noRatio?: boolean;
}): Row => {
  const value = spec.value ?? median(spec.samples);
  const baseline = spec.baseline
    ? { label: spec.baseline.label, samples: spec.baseline.samples, value: spec.baseline.value ?? median(spec.baseline.samples) }
    : undefined;
  const ratio = baseline && !spec.noRatio && baseline.value > 0 ? value / baseline.value : undefined;
  const targets = spec.targets ?? [];
  const met =
    targets.length === 0
      ? undefined
      : targets.every((t) => {
          const measured = t.on === "value" ? value : ratio;
          return measured !== undefined && Number.isFinite(measured) && measured <= t.max;
        });
  return {
    id: spec.id,
    figure: spec.figure,
    unit: spec.unit,
    samples: spec.samples,
    value,
    ...(baseline ? { baseline } : {}),
    ...(ratio !== undefined ? { ratio } : {}),
    targets,
    ...(met !== undefined ? { met } : {}),
    ...(spec.note ? { note: spec.note } : {}),
  };
};

const fmt = (value: number, unit: string): string => {
  if (!Number.isFinite(value)) return "n/a";
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
};

const targetText = (row: Row): string => row.targets.map((t) => (t.on === "ratio" ? `≤ ${t.max}×` : `≤ ${fmt(t.max, row.unit)}`)).join(", ");

export const renderTable = (rows: readonly Row[]): string => {
  const header = ["figure", "mm (median)", "baseline (median)", "ratio", "target", "met"];
  const lines = rows.map((r) => [
    r.figure,
    fmt(r.value, r.unit),
    r.baseline ? `${fmt(r.baseline.value, r.unit)} ${r.baseline.label}` : "",
    r.ratio !== undefined ? `${r.ratio.toFixed(2)}×` : "",
    targetText(r),
    r.met === undefined ? "" : r.met ? "yes" : "NO",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const render = (cells: readonly string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  return [render(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.map(render)].join("\n");
};
