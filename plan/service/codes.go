package service

import (
	"slices"
	"strings"
)

// Diagnostic codes are stable: never renumber or reuse one. AZSVC0xxx are
// input errors (the manifest cannot be read as a Service), AZSVC1xxx
// annotation and field value errors, AZSVC2xxx cross-field errors, AZSVC3xxx
// warnings (CCM accepts the input but does something surprising), AZSVC4xxx
// plan-time refusals (refusal_codes.go). Every
// diagnostic carries a one-line message and a hint with the fix.
//
//	code       severity  check                                              reference
//	AZSVC0001  error     malformed YAML/JSON (other documents still read)    -
//	AZSVC0002  error     field of the wrong type (port: abc)                 §9
//	AZSVC0003  error     Service without metadata.name                       §9
//	AZSVC0004  error     same namespace/name twice across the input          §2.1
//	AZSVC0005  error     List item that is not an object                     -
//	AZSVC0006  error     annotation value not a string (unquoted 10/true)    -
//	AZSVC0007  error     input file or stdin over --max-input-size           -
//	AZSVC0008  error     mapping key written twice (kubectl strict decoding) -
//	AZSVC0009  error     manifest outside the namespace read from a cluster  -
//	AZSVC0010  error     kind or azsvc.io apiVersion a near miss of one read  -
//	AZSVC0011  error     spec.type one edit or case from LoadBalancer         §7.2
//	AZSVC0012  error     azure-* annotations on a non-LoadBalancer Service    §7.2
//	AZSVC1001  error     unknown azure-* key, with a did-you-mean            §1.3
//	AZSVC1002  error     unknown port_* key (param or non-numeric port)      §1.4
//	AZSVC1003  error     per-port key for a port the Service lacks           §1.4
//	AZSVC1004  error     CCM key misspelt: prefix typo, no prefix, wrong one §1
//	AZSVC1010  error     integer annotation not a whole number               §1.2
//	AZSVC1011  error     idle timeout outside 4..100                         §1.3 #10
//	AZSVC1012  error     probe interval below 5 (global or per-port)         §1.3 #13, §1.4 #42
//	AZSVC1013  error     num-of-probe below 2 (global or per-port)           §1.3 #14, §1.4 #43
//	AZSVC1014  error     PLS ip address count outside 1..8                   §1.3 #32
//	AZSVC1015  error     PLS static IP not an IPv4 address                   §1.3 #33
//	AZSVC1020  error     invalid or unmasked CIDR (CCM adds a deny-all)      §1.3 #8, §5.2
//	AZSVC1022  error     pinned or additional IP not an address              §1.3 #19, #22, #23
//	AZSVC1023  error     ipv4/ipv6 annotation with the other family          §1.3 #22, #23
//	AZSVC1024  error     health-probe_port neither a port name nor 0..65535  §1.4 #41
//	AZSVC1025  error     non-public pinned IP on an external Service         §1.3 #22
//	AZSVC1026  error     protocol other than TCP, UDP, SCTP                  §3
//	AZSVC1027  error     port, nodePort or healthCheckNodePort out of range  §3, §9
//	AZSVC1028  error     LoadBalancer Service without ports                  §3, §9
//	AZSVC1030  error     resource group name ARM refuses                     arm-rules §4.1
//	AZSVC1031  error     resource name ARM refuses (PIP, PLS, subnet, VM set) arm-rules §1.2
//	AZSVC1032  error     DNS label ARM refuses                               §1.3 #4
//	AZSVC1033  error     tag name or value ARM refuses, or too many tags     §1.3 #6, #16, §2.3
//	AZSVC1034  error     public IP prefix id not a valid prefix ID           §1.3 #26, #27
//	AZSVC1035  error     PLS FQDN not a DNS name (or a comma in the list)    §1.3 #34
//	AZSVC1036  error     PLS subscription not a GUID (or a comma)            §1.3 #36, #37
//	AZSVC1037  error     service tag with characters no tag has              §1.3 #7
//	AZSVC1038  error     probe request path not a URL path                   §1.3 #15, §1.4 #44
//	AZSVC1039  error     metadata.uid not a UUID                             §2.1
//	AZSVC1040  error     Service name or namespace the API server refuses    §9
//	AZSVC1041  error     annotation key not a qualified name                 -
//	AZSVC1042  error     annotations over the API server's 256 KiB           -
//	AZSVC1043  error     exposure boolean neither true nor false             §1.2
//	AZSVC2001  error     spec.loadBalancerSourceRanges and range annotation  §1.3 #8, §1.5 #45
//	AZSVC2002  error     SCTP on an external LB                              §3
//	AZSVC2003  error     PLS on an external LB with floating IP              §8
//	AZSVC2004  error     PLS on an IPv6-only Service                         §8
//	AZSVC2005  error     probe interval x num-of-probe >= 120 (fallbacks)    §4
//	AZSVC2006  error     more PLS static IPs than the count                  §1.3 #33
//	AZSVC2007  error     nodePort needed, allocateLoadBalancerNodePorts off  §3, §4, §9
//	AZSVC2008  retired   (was: nodePort not in the manifest; now a value the API server assigns)
//	AZSVC2009  error     two ports with the same number and protocol         §3
//	AZSVC2010  retired   (was: no healthCheckNodePort; now a value the API server assigns)
//	AZSVC2011  error     two ports with the same name                        §9
//	AZSVC3001  warning   key CCM no longer reads (shared-securityrule, ...)  §1.5
//	AZSVC3002  retired   (was: internal "True" a warning; now AZSVC1043, an error)
//	AZSVC3003  warning   appProtocol http/https switches the probe           §4
//	AZSVC3004  warning   PLS proxy protocol with ETP Local                   §8
//	AZSVC3005  warning   PLS subnet unset or = internal subnet, ETP Local    §8
//	AZSVC3006  warning   azure-load-balancer-mode ignored on standard        §1.3 #3
//	AZSVC3007  warning   other boolean neither true nor false (read as false) §1.2
//	AZSVC3008  warning   tag pair silently dropped                           §1.3 #6, #16
//	AZSVC3009  warning   unknown probe protocol falls back to Tcp            §1.3 #12
//	AZSVC3010  warning   internal-only annotation on an external Service     §1.3 #2, #11
//	AZSVC3011  warning   service tags with spec.loadBalancerSourceRanges     §1.3 #7
//	AZSVC3012  warning   deny-all without any source range                   §1.3 #9
//	AZSVC3013  warning   not a regular file inside a -f directory: skipped   -
//	AZSVC3014  warning   setting ignored in context (probe path on Tcp, ...)  §3, §4
//	AZSVC3015  warning   public IP setting on an internal Service            §1.3 #4-#6, #24-#27
//	AZSVC3016  warning   PLS setting without azure-pls-create                §8
//	AZSVC3017  warning   setting for an IP family the Service lacks          §1.3 #22-#27
//	AZSVC3018  warning   no LoadBalancer Service in the input (validate)     -
//	AZSVC3020  warning   unknown key under a Service annotation prefix       §1
//	AZSVC3030  warning   no UID, and internal frontends Azure cannot tie     §2.1
//	AZSVC40xx  error     CCM's reconcile would fail (plan time)              refusal_codes.go
const (
	CodeMalformed        = "AZSVC0001"
	CodeWrongType        = "AZSVC0002"
	CodeNoName           = "AZSVC0003"
	CodeDuplicateService = "AZSVC0004"
	CodeNotObject        = "AZSVC0005"
	CodeNonStringValue   = "AZSVC0006"
	CodeInputTooLarge    = "AZSVC0007"
	CodeDuplicateKey     = "AZSVC0008"
	CodeOutsideScope     = "AZSVC0009"
	CodeMisspeltKind     = "AZSVC0010"
	CodeMisspeltType     = "AZSVC0011"
	CodeAzureOnNonLB     = "AZSVC0012"

	CodeUnknownAnnotation  = "AZSVC1001"
	CodeUnknownPortKey     = "AZSVC1002"
	CodePortNotInService   = "AZSVC1003"
	CodeMisspeltKey        = "AZSVC1004"
	CodeNotInteger         = "AZSVC1010"
	CodeIdleTimeoutRange   = "AZSVC1011"
	CodeProbeIntervalMin   = "AZSVC1012"
	CodeProbeNumMin        = "AZSVC1013"
	CodePLSCountRange      = "AZSVC1014"
	CodePLSStaticIP        = "AZSVC1015"
	CodeInvalidCIDR        = "AZSVC1020"
	CodeInvalidIP          = "AZSVC1022"
	CodeIPFamilyMismatch   = "AZSVC1023"
	CodeProbePort          = "AZSVC1024"
	CodeNonPublicIP        = "AZSVC1025"
	CodeProtocol           = "AZSVC1026"
	CodeBothSourceRanges   = "AZSVC2001"
	CodeSCTPExternal       = "AZSVC2002"
	CodePLSExternalFIP     = "AZSVC2003"
	CodePLSIPv6Only        = "AZSVC2004"
	CodeProbeTotal         = "AZSVC2005"
	CodePLSTooManyIPs      = "AZSVC2006"
	CodeNodePortsNeeded    = "AZSVC2007"
	CodePortRange          = "AZSVC1027"
	CodeNoPorts            = "AZSVC1028"
	CodeResourceGroupName  = "AZSVC1030"
	CodeResourceName       = "AZSVC1031"
	CodeDNSLabel           = "AZSVC1032"
	CodeTag                = "AZSVC1033"
	CodePrefixID           = "AZSVC1034"
	CodeFQDN               = "AZSVC1035"
	CodeSubscriptionID     = "AZSVC1036"
	CodeServiceTag         = "AZSVC1037"
	CodeRequestPath        = "AZSVC1038"
	CodeUID                = "AZSVC1039"
	CodeObjectName         = "AZSVC1040"
	CodeAnnotationKey      = "AZSVC1041"
	CodeAnnotationsSize    = "AZSVC1042"
	CodeExposureBoolean    = "AZSVC1043"
	CodeDuplicatePort      = "AZSVC2009"
	CodeDuplicatePortName  = "AZSVC2011"
	CodeRemovedAnnotation  = "AZSVC3001"
	CodeAppProtocolProbe   = "AZSVC3003"
	CodePLSProxyETPLocal   = "AZSVC3004"
	CodePLSSubnetETPLocal  = "AZSVC3005"
	CodeModeIgnored        = "AZSVC3006"
	CodeNotBoolean         = "AZSVC3007"
	CodeTagPairDropped     = "AZSVC3008"
	CodeProbeProtocolValue = "AZSVC3009"
	CodeIgnoredNotInternal = "AZSVC3010"
	CodeServiceTagsRanges  = "AZSVC3011"
	CodeDenyAllNoRanges    = "AZSVC3012"
	CodeNotRegularFile     = "AZSVC3013"
	CodeIgnoredInContext   = "AZSVC3014"
	CodePublicIPOnInternal = "AZSVC3015"
	CodePLSWithoutCreate   = "AZSVC3016"
	CodeFamilyIgnored      = "AZSVC3017"
	CodeNothingChecked     = "AZSVC3018"
	CodeForeignAnnotation  = "AZSVC3020"
	// CodeUIDUntied is raised at plan time by plan/adopt.
	CodeUIDUntied = "AZSVC3030"
)

// Rule describes a diagnostic code. Description (what goes wrong) and Help
// (the fix) are markdown with code spans only (codes_help.go).
type Rule struct {
	Code        string   `json:"code"`
	Severity    Severity `json:"severity"`
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	Help        string   `json:"help,omitempty"`
}

// ruleRow is a line of the code tables.
type ruleRow struct {
	Code     string
	Severity Severity
	Title    string
}

// Rules lists every diagnostic code, sorted by code.
func Rules() []Rule {
	rows := append(append(append(serviceRules(), endpointRules()...), topologyRules()...), refusalRules()...)
	help := ruleHelp()
	rules := make([]Rule, len(rows))
	for i, r := range rows {
		h := help[r.Code]
		rules[i] = Rule{Code: r.Code, Severity: r.Severity, Title: r.Title, Description: h[0], Help: h[1]}
	}
	slices.SortFunc(rules, func(a, b Rule) int { return strings.Compare(a.Code, b.Code) })
	return rules
}

func serviceRules() []ruleRow {
	e, w := SeverityError, SeverityWarning
	return []ruleRow{
		{CodeMalformed, e, "malformed YAML or JSON"},
		{CodeWrongType, e, "field has the wrong type"},
		{CodeNoName, e, "Service has no metadata.name"},
		{CodeDuplicateService, e, "duplicate Service namespace/name"},
		{CodeNotObject, e, "List item is not a Kubernetes object"},
		{CodeNonStringValue, e, "annotation value is not a string"},
		{CodeInputTooLarge, e, "input larger than the size limit"},
		{CodeDuplicateKey, e, "mapping key written twice"},
		{CodeOutsideScope, e, "manifest outside the namespace read from the cluster"},
		{CodeMisspeltKind, e, "kind or apiVersion misspelt: the object would be left out"},
		{CodeMisspeltType, e, "spec.type misspelt: the Service would be left out"},
		{CodeAzureOnNonLB, e, "Azure annotations on a Service that is not of type LoadBalancer"},
		{CodeUnknownAnnotation, e, "unknown Azure annotation"},
		{CodeUnknownPortKey, e, "unknown per-port annotation"},
		{CodePortNotInService, e, "per-port annotation names a port the Service does not have"},
		{CodeMisspeltKey, e, "misspelt or misplaced Azure annotation key"},
		{CodeNotInteger, e, "annotation value is not a whole number"},
		{CodeIdleTimeoutRange, e, "idle timeout out of 4..100"},
		{CodeProbeIntervalMin, e, "probe interval below 5"},
		{CodeProbeNumMin, e, "probe num-of-probe below 2"},
		{CodePLSCountRange, e, "PLS ip address count out of 1..8"},
		{CodePLSStaticIP, e, "PLS static IP is not an IPv4 address"},
		{CodeInvalidCIDR, e, "invalid or unmasked CIDR (CCM adds a deny-all rule)"},
		{CodeInvalidIP, e, "invalid IP address"},
		{CodeIPFamilyMismatch, e, "IP address of the wrong family"},
		{CodeProbePort, e, "invalid health-probe_port"},
		{CodeNonPublicIP, e, "pinned public IP is not a public address"},
		{CodeProtocol, e, "protocol not supported by Azure load balancers"},
		{CodePortRange, e, "port number out of 1..65535"},
		{CodeNoPorts, e, "LoadBalancer Service without ports"},
		{CodeResourceGroupName, e, "resource group name that ARM refuses"},
		{CodeResourceName, e, "resource name that ARM refuses"},
		{CodeDNSLabel, e, "DNS label that ARM refuses"},
		{CodeTag, e, "tag that ARM refuses"},
		{CodePrefixID, e, "invalid public IP prefix ID"},
		{CodeFQDN, e, "invalid Private Link Service FQDN"},
		{CodeSubscriptionID, e, "invalid subscription ID"},
		{CodeServiceTag, e, "invalid service tag"},
		{CodeRequestPath, e, "invalid probe request path"},
		{CodeUID, e, "metadata.uid is not a UUID"},
		{CodeObjectName, e, "Service name or namespace the API server refuses"},
		{CodeAnnotationKey, e, "annotation key the API server refuses"},
		{CodeAnnotationsSize, e, "annotations larger than 256 KiB"},
		{CodeExposureBoolean, e, "boolean that decides who can reach the Service is neither true nor false"},
		{CodeBothSourceRanges, e, "both loadBalancerSourceRanges and allowed-ip-ranges set"},
		{CodeSCTPExternal, e, "SCTP on an external load balancer"},
		{CodePLSExternalFIP, e, "Private Link Service on an external LB with floating IP"},
		{CodePLSIPv6Only, e, "Private Link Service on an IPv6-only Service"},
		{CodeProbeTotal, e, "probe interval x num-of-probe >= 120"},
		{CodePLSTooManyIPs, e, "more PLS static IPs than the ip address count"},
		{CodeNodePortsNeeded, e, "nodePort needed but allocateLoadBalancerNodePorts is false"},
		{CodeDuplicatePort, e, "two ports with the same number and protocol"},
		{CodeDuplicatePortName, e, "two ports with the same name"},
		{CodeRemovedAnnotation, w, "annotation has no effect"},
		{CodeAppProtocolProbe, w, "appProtocol switches the health probe protocol"},
		{CodePLSProxyETPLocal, w, "PLS proxy protocol with externalTrafficPolicy Local"},
		{CodePLSSubnetETPLocal, w, "PLS subnet may be the pod subnet with externalTrafficPolicy Local"},
		{CodeModeIgnored, w, "azure-load-balancer-mode is ignored on a standard SKU"},
		{CodeNotBoolean, w, "boolean annotation is neither true nor false"},
		{CodeTagPairDropped, w, "tag pair silently dropped"},
		{CodeProbeProtocolValue, w, "unknown probe protocol falls back to Tcp"},
		{CodeIgnoredNotInternal, w, "annotation ignored on an external Service"},
		{CodeServiceTagsRanges, w, "service tags with source ranges"},
		{CodeDenyAllNoRanges, w, "deny-all without source ranges has no effect"},
		{CodeNotRegularFile, w, "not a regular file: skipped"},
		{CodeIgnoredInContext, w, "setting ignored in this context"},
		{CodePublicIPOnInternal, w, "public IP setting on an internal Service"},
		{CodePLSWithoutCreate, w, "Private Link Service setting without azure-pls-create"},
		{CodeFamilyIgnored, w, "setting for an IP family the Service does not have"},
		{CodeNothingChecked, w, "no Service of type LoadBalancer in the input: nothing was checked"},
		{CodeForeignAnnotation, w, "annotation the Azure cloud provider does not read"},
		{CodeUIDUntied, w, "no metadata.uid, and Azure holds internal frontends it cannot tie to a Service"},
	}
}

// severityOf returns a code's severity (error for an unknown code).
func severityOf(code string) Severity {
	if code >= "AZSVC3000" && code < "AZSVC4000" {
		return SeverityWarning
	}
	return SeverityError
}
