import { getConfig } from "../app/config.server";
import { describeDatabase, openDatabase } from "../server/database";

// `npm run db:migrate`: what `npm start` does first, by hand — on DATABASE_URL, or on the embedded PostgreSQL.
const database = await openDatabase(getConfig());
console.info(`Migrations: ${database.migrations.applied.length > 0 ? "applied" : "nothing pending"}; ${describeDatabase(database)}`);
for (const name of database.migrations.modified) console.warn(`Migration ${name} was changed after it was applied; it was not run again.`);
await database.close();
