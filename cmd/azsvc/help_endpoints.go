package main

// privateEndpointsHelp is `azsvc help private-endpoints`: the input kind
// beside Services (plan/service/endpoint.go), and what plan and apply make
// of it.
const privateEndpointsHelp = `A PrivateEndpoint object, in the same files as the Services, asks for the
consumer side of Private Link: a private endpoint connected to a Service's
Private Link Service (or to one outside the input), and private DNS names
pointing at it.

  apiVersion: azsvc.io/v1alpha1
  kind: PrivateEndpoint
  metadata: {name: private-router, namespace: clusters-foo}
  spec:
    service: private-router     # a Service of the input ("ns/name" for another namespace)
    # privateLinkServiceID: ... # or a PLS outside the input: its ARM ID or alias
    subnetID: /subscriptions/<guest>/resourceGroups/<rg>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>
    resourceGroup: <rg>         # default: the subnet's; the subscription is always the subnet's
    name: <pe-name>             # default: metadata.name
    manualApproval: false       # true: a manual connection, by the PLS's alias
    requestMessage: ""          # shown to whoever approves it (140 characters)
    approve: false              # true: approve a Pending connection through the PLS, when azsvc manages it
    dns:
    - zone: foo.hypershift.local  # created in the endpoint's resource group, location global
      records: [api, "*.apps"]    # A records holding the endpoint's IP
      ttl: 300                    # default 300
      vnetLinks: []               # VNet IDs to link; default: the subnet's VNet

Ownership. The endpoint and its records carry the tags CCM puts on what it
owns (k8s-azure-cluster-name, and k8s-azure-owner-service naming
PrivateEndpoint/<ns>/<name>; records keep them in their metadata). A zone or
link that exists and azsvc does not manage is used, never rewritten or
deleted; a zone several endpoints write in is deleted only when none declares
it any more. An endpoint absent from the input is left alone unless --prune;
with --prune it is found through the connections of the PLSs azsvc manages.

Order. Creates run Service frontend, PLS, endpoint, approval, zones, links,
records; deletes the other way round, and a PLS goes only after the
endpoints that connect to it. Values Azure assigns (the endpoint's IP, the
PLS alias) are "(known after apply)" in the plan and copied at apply time.

Connection states. Approved: done. Pending: apply succeeds, and the plan and
the apply summary say "awaiting approval by the PLS owner" (exit 0).
Rejected or Disconnected: the plan shows drift and re-creates the endpoint,
its DNS records following the new address.

azsvc validate checks every field offline (codes AZSVC0051-AZSVC3052 in the
PrivateEndpoint range: unknown fields with a suggestion, ARM IDs, zone and
record names, TTLs, the service and its PLS visibility and auto-approval,
two endpoints writing one record, one network linked to two zones of one
name).
`
