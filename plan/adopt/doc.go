// Package adopt finds the UID CCM used for a Service whose manifest has no
// metadata.uid, from the marks CCM leaves in ARM (issue 13, item 0).
//
// CCM names a Service's frontend, rules and probes with the prefix "a" +
// the first 31 hex digits of its UID (ccm-semantics §2.1) and tags its
// managed public IPs and Private Link Services with the Service's
// namespace/name (§2.3). A manifest exported without its UID would get a
// derived one and so new names: a second public IP and frontend beside
// the ones CCM built. Adopting the prefix found in ARM gives the same
// names CCM used, so the plan updates in place.
//
// Only the prefix is recoverable (the 32nd hex digit is cut off), and only
// the prefix names resources, so that is what is adopted.
package adopt
