package service

// Diagnostic codes of PrivateEndpoint objects. They follow the ranges of
// codes.go (0xxx input, 1xxx values, 2xxx cross-field, 3xxx warnings) from
// x050 up, so that codes for Services and for endpoints never collide.
//
//	code       severity  check
//	AZSVC0051  error     same PrivateEndpoint namespace/name twice
//	AZSVC0052  error     required field missing (metadata.name, spec.subnetID, dns[].zone)
//	AZSVC1050  error     unknown field, with a did-you-mean
//	AZSVC1051  error     not an ARM ID of the right type (subnet, PLS, virtual network)
//	AZSVC1052  error     invalid private DNS zone name
//	AZSVC1053  error     invalid DNS record name
//	AZSVC1054  error     TTL outside 1..2147483647
//	AZSVC1055  error     invalid Azure resource or resource group name
//	AZSVC1056  error     requestMessage longer than 140 characters
//	AZSVC2050  error     neither or both of service and privateLinkServiceID
//	AZSVC2051  error     service not in the input
//	AZSVC2052  error     service without azure-pls-create
//	AZSVC2053  error     two endpoints write the same DNS record
//	AZSVC2054  error     PLS visibility excludes the endpoint's subscription
//	AZSVC2055  error     zone, record or network link listed twice in one endpoint
//	AZSVC2056  error     two PrivateEndpoints name the same Azure private endpoint
//	AZSVC2057  error     one VNet linked to two private DNS zones of the same name
//	AZSVC3050  warning   PLS auto-approval excludes the endpoint's subscription
//	AZSVC3051  warning   PLS visibility may exclude it (cluster subscription unknown)
//	AZSVC3052  warning   approve: true with a PLS named by alias (nothing to approve through)
const (
	CodeDuplicateEndpoint   = "AZSVC0051"
	CodeMissingField        = "AZSVC0052"
	CodeUnknownField        = "AZSVC1050"
	CodeInvalidARMID        = "AZSVC1051"
	CodeInvalidZoneName     = "AZSVC1052"
	CodeInvalidRecordName   = "AZSVC1053"
	CodeTTLRange            = "AZSVC1054"
	CodeInvalidResourceName = "AZSVC1055"
	CodeRequestMessage      = "AZSVC1056"
	CodeEndpointTarget      = "AZSVC2050"
	CodeServiceNotInInput   = "AZSVC2051"
	CodeServiceWithoutPLS   = "AZSVC2052"
	CodeRecordConflict      = "AZSVC2053"
	CodePLSNotVisible       = "AZSVC2054"
	CodeListedTwice         = "AZSVC2055"
	CodeSameAzureEndpoint   = "AZSVC2056"
	CodeZoneNameLinkedTwice = "AZSVC2057"
	CodeStaysPending        = "AZSVC3050"
	CodeMaybeNotVisible     = "AZSVC3051"
	CodeApproveByAlias      = "AZSVC3052"
)

// endpointRules describes the PrivateEndpoint codes.
func endpointRules() []ruleRow {
	e, w := SeverityError, SeverityWarning
	return []ruleRow{
		{CodeDuplicateEndpoint, e, "duplicate PrivateEndpoint namespace/name"},
		{CodeMissingField, e, "required PrivateEndpoint field missing"},
		{CodeUnknownField, e, "unknown PrivateEndpoint field"},
		{CodeInvalidARMID, e, "invalid Azure resource ID"},
		{CodeInvalidZoneName, e, "invalid private DNS zone name"},
		{CodeInvalidRecordName, e, "invalid DNS record name"},
		{CodeTTLRange, e, "DNS TTL out of 1..2147483647"},
		{CodeInvalidResourceName, e, "invalid Azure resource or resource group name"},
		{CodeRequestMessage, e, "requestMessage longer than 140 characters"},
		{CodeEndpointTarget, e, "private endpoint needs exactly one of service and privateLinkServiceID"},
		{CodeServiceNotInInput, e, "private endpoint names a Service that is not in the input"},
		{CodeServiceWithoutPLS, e, "private endpoint names a Service without a Private Link Service"},
		{CodeRecordConflict, e, "two private endpoints write the same DNS record"},
		{CodePLSNotVisible, e, "Private Link Service is not visible to the endpoint's subscription"},
		{CodeListedTwice, e, "DNS zone, record or network link listed twice"},
		{CodeSameAzureEndpoint, e, "two PrivateEndpoints name the same Azure private endpoint"},
		{CodeZoneNameLinkedTwice, e, "one virtual network linked to two private DNS zones of the same name"},
		{CodeStaysPending, w, "connection will stay Pending: the PLS does not auto-approve the subscription"},
		{CodeMaybeNotVisible, w, "Private Link Service may not be visible to the endpoint's subscription"},
		{CodeApproveByAlias, w, "approve: true has no effect on a private link service named by alias"},
	}
}
