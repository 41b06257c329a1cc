/**
 * The query keys of the client's data, one factory per resource, so a query and the action that
 * makes it stale name the same key. A resource's keys share its first element: invalidating
 * `all()` reaches every query of it.
 */
export const queryKeys = {
  askThreads: {
    all: () => ["ask-threads"] as const,
    list: () => ["ask-threads", "list"] as const,
    detail: (threadId: string) => ["ask-threads", "detail", threadId] as const,
  },
  reindexJobs: {
    all: () => ["reindex-jobs"] as const,
    progress: (jobId: string) => ["reindex-jobs", "progress", jobId] as const,
  },
  importJobs: {
    all: () => ["import-jobs"] as const,
    progress: (jobId: string) => ["import-jobs", "progress", jobId] as const,
  },
  embedGroupPreviews: {
    all: () => ["embed-group-previews"] as const,
    /** The preview of a group as the form holds it, on one record of the section. */
    preview: (sectionSlug: string, group: unknown, recordId: string) => ["embed-group-previews", sectionSlug, recordId, group] as const,
  },
};
