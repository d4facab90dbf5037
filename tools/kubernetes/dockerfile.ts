export interface DockerfileStage {
  /** The ports its EXPOSE lines name. */
  expose: number[];
}

/** The Dockerfile's stages by name (`FROM ... AS name`), with what the manifests must agree with. */
export function dockerfileStages(text: string): Map<string, DockerfileStage> {
  const stages = new Map<string, DockerfileStage>();
  let current: DockerfileStage | undefined;
  for (const line of text.split('\n')) {
    const from = /^FROM\s+\S+\s+AS\s+([\w-]+)\s*$/i.exec(line);
    if (from) {
      current = { expose: [] };
      stages.set(from[1], current);
    }
    const expose = /^EXPOSE\s+(.+)$/i.exec(line);
    if (expose && current) current.expose.push(...expose[1].trim().split(/\s+/).map((port) => Number(port.split('/')[0])));
  }
  return stages;
}
