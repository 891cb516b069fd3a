/** The patient app's calls of this feature: request and answer shapes shared by the server and the app. */
export {};
