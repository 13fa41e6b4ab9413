// Package azure reads Azure networking into plan types and writes plan steps
// back, through the real armnetwork and armprivatedns clients, against Azure
// (NewAzure, authenticated and pointed at a cloud as CCM's azure.json says:
// credential.go, cloud.go) or an ARM emulator or any ARM endpoint with a
// static token (NewEmulator). It is the only package that imports the Azure
// SDK.
//
// Conventions other packages rely on (details in convert.go):
//
//   - Read lists each resource type once per resource group (ReadScope) and
//     splits a load balancer into the LB and its frontends, pools, probes and
//     rules, and an NSG into the NSG and its security rules. Children carry
//     their parent's etag. A frontend's zones are in Resource.Zones.
//   - Properties hold ARM's "properties" minus read-only fields (the readOnly
//     table), plus a few computed values plans show and apply copies: PLS
//     "alias", PLS "privateEndpointConnections" (summarised) and PE
//     "privateIPAddress". Writes never send them.
//   - Write turns one plan.Step into one PUT (LB and NSG with every child
//     inline) or DELETE, sends If-Match when the step has an etag, waits for
//     the long-running operation and returns the result converted as Read
//     converts it. Deleting a PLS deletes its private endpoint connections
//     first, as CCM does.
//   - Failures carrying an ARM response are *Error (status, code, message,
//     Retry-After). Writes are sent once, without the SDK's retries; reads
//     and polls keep them.
package azure
