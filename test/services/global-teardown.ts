/** jest globalTeardown: stops the private Redis / PostgreSQL servers globalSetup started. */
export default async function globalTeardown(): Promise<void> {
  for (const svc of globalThis.__coursegateServices ?? []) await svc.stop();
}
