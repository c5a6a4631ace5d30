export * from "./dates";
export * from "./envelopes";
export * from "./params";
export * from "./performance";
export * from "./queries";
export * from "./resources";
