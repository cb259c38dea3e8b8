/** The workflow bundle's entry: every workflow the worker registers. */
export { systemCheckWorkflow } from './system-check';
export { documentWorkflow } from './document';
export { benchActivitiesWorkflow, benchUpdateWorkflow } from './bench';
export { actionBatchWorkflow } from './action-batch';
export { uploadPollerWorkflow } from './upload-poller';
export { llmRerunWorkflow } from './llm-rerun';
export { trainNodeWorkflow } from './train-node';
export { ragIndexWorkflow, ragQueryWorkflow } from './rag';
export { webhookDeliveryWorkflow } from './webhook-delivery';
