/**
 * "Today" as the server counts license days (UTC). Its own module: the doctor's home (the license
 * notice) needs it without the license card's upload dialog and table.
 */
export const licenseToday = () => new Date().toISOString().slice(0, 10);
