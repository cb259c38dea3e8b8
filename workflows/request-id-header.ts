/** The Temporal header carrying the id of the API request behind a workflow, Update or activity. */
export const REQUEST_ID_HEADER = 'workbench-request-id';
