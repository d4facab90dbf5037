export interface DockerfileStage {
  /** The ports its EXPOSE lines name. */
  expose: number[];
  /** What its ENV lines set (`ENV NAME=value ...`), with what the stage it is built FROM set. */
  env: Record<string, string>;
  /** Its CMD, in exec form (a JSON array). */
  cmd?: string[];
}

/** The Dockerfile's stages by name (`FROM ... AS name`), with what the manifests must agree with. */
export function dockerfileStages(text: string): Map<string, DockerfileStage> {
  const stages = new Map<string, DockerfileStage>();
  let current: DockerfileStage | undefined;
  for (const line of text.split('\n')) {
    const from = /^FROM\s+(\S+)\s+AS\s+([\w-]+)\s*$/i.exec(line);
    if (from) {
      current = { expose: [], env: { ...stages.get(from[1])?.env } };
      stages.set(from[2], current);
    }
    const env = /^ENV\s+(.+)$/i.exec(line);
    if (env && current) {
      for (const pair of env[1].trim().split(/\s+/)) {
        const [name, ...value] = pair.split('=');
        current.env[name] = value.join('=');
      }
    }
    const cmd = /^CMD\s+(\[.*\])\s*$/i.exec(line);
    if (cmd && current) current.cmd = JSON.parse(cmd[1]) as string[];
    const expose = /^EXPOSE\s+(.+)$/i.exec(line);
    if (expose && current) current.expose.push(...expose[1].trim().split(/\s+/).map((port) => Number(port.split('/')[0])));
  }
  return stages;
}
