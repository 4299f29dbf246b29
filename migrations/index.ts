import { EnablePgvector1763700000000 } from './1763700000000-enable-pgvector';
import { CreateMemories1763700001000 } from './1763700001000-create-memories';
import { CreateLessonsAndAgents1763700002000 } from './1763700002000-create-lessons-and-agents';

/**
 * Every migration, oldest first. Listed explicitly (not globbed) so the app, the CLI and the
 * tests load the same classes whether running from TypeScript or from dist/.
 */
export const ALL_MIGRATIONS = [EnablePgvector1763700000000, CreateMemories1763700001000, CreateLessonsAndAgents1763700002000];
