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

/** The <option>s for choosing one of a list of named things (a golden set, an index space, a conversation), by id. */
export function NamedOptions({ items }: { items: readonly { id: string; name: string }[] }) {
  return items.map((item) => (
    <option key={item.id} value={item.id}>
      {item.name}
    </option>
  ));
}

/** The <option>s for a list of plain values, each shown as itself. */
export function TextOptions({ values }: { values: readonly string[] }) {
  return values.map((value) => (
    <option key={value} value={value}>
      {value}
    </option>
  ));
}
