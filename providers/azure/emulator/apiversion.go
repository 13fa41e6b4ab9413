package emulator

import (
	"net/http"
	"slices"
	"strings"
)

// The api-versions each resource provider serves. ARM routes a request by
// its api-version and refuses one the provider has not registered
// (arm-rules §1.1):
//
//   - a resource group: 400 InvalidApiVersionParameter, "The api-version 'V'
//     is invalid. The supported versions are '…'." (Azure/azure-sdk-for-go#246,
//     Azure/azure-sdk-for-python#4091);
//   - a provider resource: 400 NoRegisteredProviderFound, "No registered
//     resource provider found for location 'L' and API version 'V' for type
//     'T'. The supported api-versions are '…'. …" (Azure/azure-cli#27154,
//     #27010, #28496);
//   - a provider collection: 404 InvalidResourceType, "The resource type 'T'
//     could not be found in the namespace 'N' for api version 'V'. The
//     supported api-versions are '…'." (Azure/azure-cli#13834,
//     Azure/azure-powershell#12061).
//
// networkVersions is the list ARM gave for publicIPAddresses, privateEndpoints
// and networkInterfaces in those errors (through 2023-04-01), then the later
// stable versions: the Microsoft.Network spec folders up to 2025-10-01
// (arm-rules §1.1), 2025-05-01 of armnetwork v9 (go.mod) and 2026-01-01 of
// @azure/arm-network 39.
var networkVersions = []string{
	"2014-12-01-preview", "2015-05-01-preview", "2015-06-15", "2016-03-30", "2016-06-01", "2016-07-01",
	"2016-08-01", "2016-09-01", "2016-10-01", "2016-11-01", "2016-12-01", "2017-03-01", "2017-04-01",
	"2017-06-01", "2017-08-01", "2017-09-01", "2017-10-01", "2017-11-01", "2018-01-01", "2018-02-01",
	"2018-03-01", "2018-04-01", "2018-05-01", "2018-06-01", "2018-07-01", "2018-08-01", "2018-10-01",
	"2018-11-01", "2018-12-01", "2019-02-01", "2019-04-01", "2019-06-01", "2019-07-01", "2019-08-01",
	"2019-09-01", "2019-11-01", "2019-12-01", "2020-01-01", "2020-03-01", "2020-04-01", "2020-05-01",
	"2020-06-01", "2020-07-01", "2020-08-01", "2020-11-01", "2021-01-01", "2021-02-01", "2021-03-01",
	"2021-04-01", "2021-05-01", "2021-06-01", "2021-08-01", "2021-12-01", "2022-01-01", "2022-05-01",
	"2022-07-01", "2022-09-01", "2022-11-01", "2023-02-01", "2023-04-01", "2023-05-01", "2023-06-01",
	"2023-09-01", "2023-11-01", "2024-01-01", "2024-03-01", "2024-05-01", "2024-07-01", "2024-10-01",
	"2025-01-01", "2025-03-01", "2025-05-01", "2025-07-01", "2025-10-01", "2026-01-01",
}

// networkSince is the first api-version of the types that came later than
// the rest: privateEndpoints in ARM's list (Azure/azure-cli#27010), the
// others in the spec folders that first describe them.
var networkSince = map[string]string{
	"privateendpoints":    "2019-02-01",
	"privatelinkservices": "2019-04-01",
	"publicipprefixes":    "2018-07-01",
}

// privateDNSVersions are the stable folders of the Private DNS specs
// (specification/privatedns/resource-manager/Microsoft.Network/PrivateDns/readme.md);
// armprivatedns v1.3 (go.mod) and @azure/arm-privatedns 4 use 2024-06-01.
var privateDNSVersions = []string{"2018-09-01", "2020-01-01", "2020-06-01", "2024-06-01"}

// resourceGroupVersions is Microsoft.Resources' list as ARM gave it in those
// errors (through 2024-08-01), and 2025-04-01 of @azure/arm-resources 8.
var resourceGroupVersions = []string{
	"2025-04-01", "2024-08-01", "2024-06-01-preview", "2024-03-01", "2023-07-01", "2023-07-01-preview",
	"2023-03-01-preview", "2022-12-01", "2022-11-01-preview", "2022-09-01", "2022-06-01", "2022-05-01",
	"2022-03-01-preview", "2022-01-01", "2021-04-01", "2021-01-01", "2020-10-01", "2020-09-01",
	"2020-08-01", "2020-07-01", "2020-06-01", "2020-05-01", "2020-01-01", "2019-11-01", "2019-10-01",
	"2019-09-01", "2019-08-01", "2019-07-01", "2019-06-01", "2019-05-10", "2019-05-01", "2019-03-01",
	"2018-11-01", "2018-09-01", "2018-08-01", "2018-07-01", "2018-06-01", "2018-05-01", "2018-02-01",
	"2018-01-01", "2017-12-01", "2017-08-01", "2017-06-01", "2017-05-10", "2017-05-01", "2017-03-01",
	"2016-09-01", "2016-07-01", "2016-06-01", "2016-02-01", "2015-11-01", "2015-01-01",
	"2014-04-01-preview", "2014-04-01", "2014-01-01", "2013-03-01", "2014-02-26", "2014-04",
}

// servedVersions returns the api-versions ARM serves for the path's type.
func servedVersions(a *address) []string {
	if a.namespace == "" {
		return resourceGroupVersions
	}
	if isPrivateDNS(a) {
		return privateDNSVersions
	}
	top := strings.ToLower(a.segs[0])
	if since := networkSince[top]; since != "" {
		return networkVersions[slices.Index(networkVersions, since):]
	}
	return networkVersions
}

// checkAPIVersion refuses an api-version the type's provider does not serve,
// with the error ARM gives for the request's scope.
func (e *Emulator) checkAPIVersion(r *http.Request, a *address) *armError {
	v := r.URL.Query().Get("api-version")
	served := servedVersions(a)
	if slices.Contains(served, v) {
		return nil
	}
	if a.namespace == "" {
		return badRequest("InvalidApiVersionParameter", "The api-version '%s' is invalid. The supported versions are '%s'.",
			v, strings.Join(served, ","))
	}
	typ := strings.TrimPrefix(a.armType(), a.namespace+"/")
	if r.Method == http.MethodGet && len(a.segs)%2 == 1 {
		return newErr(http.StatusNotFound, "InvalidResourceType",
			"The resource type '%s' could not be found in the namespace '%s' for api version '%s'. The supported api-versions are '%s'.",
			typ, a.namespace, v, strings.Join(served, ","))
	}
	return badRequest("NoRegisteredProviderFound",
		"No registered resource provider found for location '%s' and API version '%s' for type '%s'. The supported api-versions are '%s'.",
		e.requestLocation(r, a), v, typ, strings.Join(served, ", "))
}

// isPrivateDNS reports whether a provider path is the Private DNS RP's.
func isPrivateDNS(a *address) bool {
	top := strings.ToLower(a.segs[0])
	return top == "privatednszones" || strings.HasPrefix(top, "privatednsoperation")
}

// requestLocation is the location ARM routes a request to: the body's, else
// the resource's, else its resource group's; Private DNS is global.
func (e *Emulator) requestLocation(r *http.Request, a *address) string {
	if isPrivateDNS(a) {
		return "global"
	}
	if body, err := decodeBody(r); err == nil && getStr(body, "location") != "" {
		return strings.ToLower(strings.ReplaceAll(getStr(body, "location"), " ", ""))
	}
	for _, id := range []string{a.id(), a.rgID()} {
		if en := e.store.get(key(id)); en != nil && getStr(en.body(), "location") != "" {
			return getStr(en.body(), "location")
		}
	}
	return "global"
}
