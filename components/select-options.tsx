/** The <option>s for choosing a section or a project, shared by filters and forms. */
export function SectionOptions({ sections }: { sections: readonly { slug: string; name: string }[] }) {
  return sections.map((section) => (
    <option key={section.slug} value={section.slug}>
      {section.name}
    </option>
  ));
}

export function ProjectOptions({ projects }: { projects: readonly { id: string; name: string; restricted: boolean }[] }) {
  return projects.map((project) => (
    <option key={project.id} value={project.id}>
      {project.name}
      {project.restricted ? " (restricted)" : ""}
    </option>
  ));
}
