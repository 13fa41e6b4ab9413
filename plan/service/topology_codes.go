package service

// Diagnostic codes of Node and EndpointSlice objects, from x070 up in the
// ranges of codes.go so that they never collide with the Service or
// PrivateEndpoint codes. Type errors use AZSVC0002 and repeated keys
// AZSVC0008, as for Services.
//
//	code       severity  check
//	AZSVC0070  error     same Node name twice across the input
//	AZSVC0071  error     same EndpointSlice namespace/name twice
//	AZSVC0072  error     Node or EndpointSlice without metadata.name
//	AZSVC1070  error     field the object's API version does not have (strict decoding)
//	AZSVC1071  error     node InternalIP or endpoint address that is not an IP address
//	AZSVC1072  error     EndpointSlice addressType other than IPv4, IPv6, FQDN
//	AZSVC3070  warning   EndpointSlice without kubernetes.io/service-name: CCM ignores it
//	AZSVC3071  warning   endpoint nodeName no Node of the input has: the Node manifests look incomplete
//	AZSVC3072  warning   EndpointSlice in discovery.k8s.io/v1beta1: ignored, the API server no longer serves it
const (
	CodeDuplicateNode    = "AZSVC0070"
	CodeDuplicateSlice   = "AZSVC0071"
	CodeTopologyNoName   = "AZSVC0072"
	CodeUnknownObjField  = "AZSVC1070"
	CodeNotAnAddress     = "AZSVC1071"
	CodeAddressType      = "AZSVC1072"
	CodeSliceWithoutName = "AZSVC3070"
	CodeUnknownNodeName  = "AZSVC3071"
	CodeSliceV1beta1     = "AZSVC3072"
)

// topologyRules describes the Node and EndpointSlice codes.
func topologyRules() []ruleRow {
	e, w := SeverityError, SeverityWarning
	return []ruleRow{
		{CodeDuplicateNode, e, "duplicate Node name"},
		{CodeDuplicateSlice, e, "duplicate EndpointSlice namespace/name"},
		{CodeTopologyNoName, e, "Node or EndpointSlice has no metadata.name"},
		{CodeUnknownObjField, e, "unknown Node or EndpointSlice field"},
		{CodeNotAnAddress, e, "node or endpoint address is not an IP address"},
		{CodeAddressType, e, "invalid EndpointSlice addressType"},
		{CodeSliceWithoutName, w, "EndpointSlice without the kubernetes.io/service-name label"},
		{CodeUnknownNodeName, w, "endpoint on a node no Node of the input has"},
		{CodeSliceV1beta1, w, "EndpointSlice in discovery.k8s.io/v1beta1 ignored"},
	}
}
