/** The Clock and RandomHex ports on the system's clock and `crypto`, and the OS line of the system prompt. */
export { cryptoRandomHex, platformLine, systemClock } from "./system-clock.js";
