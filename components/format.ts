/** Display formats live in lib (the API and ask format citations too); components use them from here. */
export * from "@/lib/format";
