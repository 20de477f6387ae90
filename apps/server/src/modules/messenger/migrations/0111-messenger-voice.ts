import { type Kysely, sql } from 'kysely';

/** Voice messages: the waveform computed from the audio (JSON array of 0–100 bar heights) beside the file. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table message_files add column waveform text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table message_files drop column waveform`.execute(db);
}
