/**
 * Where a field's value came from (CONTRACT "Email intake answers", `evidence`): the kind of
 * source and the label or text it was anchored on. The reader keeps one per field it sets, so
 * the preview can show why a value was read and a weak reading can be told from a strong one.
 */
import type { MessageFields } from "../../domain/orders/order.ts";
import { clip } from "../text.ts";
import type { Labelled } from "./labels.ts";

export type EvidenceKind = "markup" | "template" | "learned" | "label" | "table" | "generic";

export interface Evidence {
  kind: EvidenceKind;
  /** The label, column header or text the value was found by. */
  anchor?: string;
}

export type FieldEvidence = Partial<Record<keyof MessageFields, Evidence>>;

const MAX_ANCHOR = 80;

export function evidence(kind: EvidenceKind, anchor?: string): Evidence {
  const text = anchor?.trim();
  return text ? { kind, anchor: clip(text, MAX_ANCHOR) } : { kind };
}

/** A labelled value's evidence: a column header is `table`, a label inside a sentence `generic`. */
export function fromLabel(l: Labelled): Evidence {
  return evidence(
    l.shape === "column" ? "table" : l.shape === "sentence" ? "generic" : "label",
    l.label,
  );
}
