/** The ChangeTracker port: what a bash call changed on disk, through git in a work tree or a scan outside one. */
export { changeTracker, type ChangeTrackingOptions } from "./change-tracker.js";
