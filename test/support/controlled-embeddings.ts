import { embeddingsReply, FakeOpenAiServer, type RecordedRequest } from './fake-openai-server';

/**
 * A fake embeddings endpoint where a text `vec:<s>` (optionally `vec:<s>#label`) embeds to
 * [s, sqrt(1 - s²), 0, ...]: its cosine with `vec:1` is exactly s. Other texts get the
 * deterministic hash vectors. Lets tests put a query at a chosen similarity to a lesson.
 */
export async function startControlledEmbeddings(dimensions = 384): Promise<FakeOpenAiServer> {
  const server = new FakeOpenAiServer({ defaultDimensions: dimensions });
  installControlledEmbeddings(server, dimensions);
  await server.start();
  return server;
}

/** (Re)install the handler, e.g. after server.reset(), which restores the default one. */
export function installControlledEmbeddings(server: FakeOpenAiServer, dimensions = 384): void {
  server.setHandler('/v1/embeddings', (request: RecordedRequest) => {
    const body = request.body as { input: string[] };
    const reply = embeddingsReply(request, dimensions) as { body: { data: { embedding: number[] }[] } };
    body.input.forEach((text, i) => {
      const match = /^vec:([0-9.]+)(?:#.*)?$/.exec(text);
      if (!match) return;
      const s = Number(match[1]);
      const vector = new Array<number>(dimensions).fill(0);
      vector[0] = s;
      vector[1] = Math.sqrt(Math.max(0, 1 - s * s));
      reply.body.data[i].embedding = vector;
    });
    return reply;
  });
}
