/**
 * Payload types of a node's action execution results (spec 3 section 7, issue 29 section 3): what an
 * automatic node did for each document (or batch), shown in its panel. Shared by the API and the web app.
 */

/** A document an inter-process send created in a receiving process, as it is now. */
export interface DeliveryDTO {
  receiverNodeId: number;
  receiverName: string | null;
  processId: number;
  processName: string | null;
  documentId: number;
  /** Null when the document was deleted since. */
  documentName: string | null;
  /** The document's status (WAITING, DONE), ERROR when one of its steps failed, null when deleted. */
  documentStatus: string | null;
}

export interface ActionExecutionResultDTO {
  id: number;
  nodeId: number;
  stepId: number | null;
  documentId: number | null;
  /** The document's name (null for a batch execution, or a document deleted since). */
  documentName: string | null;
  status: 'SUCCESS' | 'FAILURE';
  /** What the action recorded: the answer (status, created file, answer...) or `error`. */
  details: Record<string, unknown>;
  /** The error message of a FAILURE, else null (the catalogue key is read from it by the web app). */
  error: string | null;
  /** How long the attempt that recorded the result took, when it was measured. */
  durationMs: number | null;
  createdDate: string;
  /** Inter-process sends only: the documents created in the receiving processes. */
  deliveries?: DeliveryDTO[];
  /** A failed inter-process send of a document's step that an administrator may send again. */
  resendable?: boolean;
}
