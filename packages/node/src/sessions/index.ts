/** The SessionStore port: a JSON document per session, a journal for the turn in flight, a lock per process. */
export { jsonSessionStore, type JsonSessionStoreOptions } from "./json-session-store.js";
export { currentOwner, ownerAlive, type LockOwner } from "./process-identity.js";
export { SESSION_FORMAT, SESSION_VERSION } from "./session-format.js";
export {
  decodeSessionDocument,
  decodeSessionFile,
  encodeSessionDocument,
  type DecodedDocument,
  type SessionDocumentError,
} from "./json-session-document.js";
export { JOURNAL_FORMAT, JOURNAL_VERSION, journalHeader, journalLines, readJournal, type JournalReading } from "./session-journal.js";
