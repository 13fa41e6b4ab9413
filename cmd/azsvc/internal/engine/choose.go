package engine

import (
	"fmt"
	"net/url"
	"strings"
)

// TargetRule is how azsvc picks its target, as ChooseTarget implements it.
// plan and apply --help, `azsvc help environment` and the README repeat it
// word for word (a test keeps the README in step).
const TargetRule = `The target is Azure whenever a subscription is known (--subscription,
AZSVC_SUBSCRIPTION, subscription: in azsvc.yaml, or azure.json's
subscriptionId), unless the local emulator is chosen explicitly: --target
emulator, --state FILE, or target: emulator in azsvc.yaml. With no
subscription anywhere, the target is the local emulator. --arm-endpoint URL
(with --arm-token) targets any ARM-compatible endpoint, such as azsvc emulator
serve. Where these settings disagree, the command line beats the environment,
which beats azsvc.yaml; two targets named at the same level are an error.
Nothing falls back to another target: the first line of every plan and apply
names the target.`

// TargetKind is what a plan reads and an apply writes.
type TargetKind int

const (
	// KindEmulator is the embedded emulator with its state file.
	KindEmulator TargetKind = iota + 1
	// KindAzure is Azure Resource Manager, authenticated as azure.json says.
	KindAzure
	// KindEndpoint is an ARM-compatible endpoint given by URL and token.
	KindEndpoint
)

// Values of Settings.Target.
const (
	TargetAuto     = "auto"
	TargetAzure    = "azure"
	TargetEmulator = "emulator"
)

// Rank orders where a setting came from: the command line beats the
// environment, which beats the settings file (ux-anchors §8.8).
type Rank int

const (
	RankFile Rank = iota + 1
	RankEnv
	RankFlag
)

// Origin is where one setting came from.
type Origin struct {
	Rank Rank
	// Where names the source for messages: "env AZSVC_TARGET",
	// "azsvc.yaml (target)"; "" is the command line.
	Where string
}

// Choice is the target ChooseTarget picked and why.
type Choice struct {
	Kind TargetKind
	Why  string // "--target emulator", "no subscription is set", ...
}

// TargetError is a contradictory or incomplete target selection: a usage
// error, reported before anything is read.
type TargetError struct{ msg string }

func (e *TargetError) Error() string { return e.msg }

func targetErrorf(format string, args ...any) error {
	return &TargetError{msg: fmt.Sprintf(format, args...)}
}

// pick is one setting that names a target.
type pick struct {
	kind   TargetKind
	what   string // "--target emulator"
	origin Origin
}

func (p pick) String() string {
	if p.origin.Where == "" {
		return p.what
	}
	return p.what + " (" + p.origin.Where + ")"
}

// ChooseTarget applies TargetRule. subscriptionKnown says whether any
// source (flag, environment, azsvc.yaml, azure.json) set a subscription.
func ChooseTarget(s Settings, subscriptionKnown bool) (Choice, error) {
	picks, err := targetPicks(s)
	if err != nil {
		return Choice{}, err
	}
	var c Choice
	if p, err := strongest(picks); err != nil {
		return Choice{}, err
	} else if p != nil {
		c = Choice{Kind: p.kind, Why: p.String()}
	} else if subscriptionKnown {
		c = Choice{Kind: KindAzure, Why: "a subscription is set"}
	} else {
		c = Choice{Kind: KindEmulator, Why: "no subscription is set"}
	}
	switch {
	case c.Kind == KindAzure && !subscriptionKnown:
		return Choice{}, targetErrorf("%s needs a subscription: set --subscription, AZSVC_SUBSCRIPTION, subscription: in azsvc.yaml, or subscriptionId in azure.json", c.Why)
	case c.Kind == KindEndpoint && s.ARMToken == "":
		return Choice{}, targetErrorf("%s needs --arm-token (or AZSVC_ARM_TOKEN): the bearer token the endpoint expects, e.g. the token: line azsvc emulator serve prints", c.Why)
	case s.ARMToken != "" && s.ARMEndpoint == "":
		return Choice{}, targetErrorf("--arm-token%s is only sent to an --arm-endpoint, and none is set", s.where("arm-token"))
	}
	return c, nil
}

func targetPicks(s Settings) ([]pick, error) {
	var picks []pick
	switch strings.ToLower(s.Target) {
	case "", TargetAuto:
	case TargetAzure:
		picks = append(picks, pick{KindAzure, "--target azure", s.origin("target")})
	case TargetEmulator:
		picks = append(picks, pick{KindEmulator, "--target emulator", s.origin("target")})
	default:
		return nil, targetErrorf("--target %q%s: want auto, azure or emulator", s.Target, s.where("target"))
	}
	if s.StatePath != "" {
		picks = append(picks, pick{KindEmulator, "--state " + s.StatePath, s.origin("state")})
	}
	if s.ARMEndpoint != "" {
		picks = append(picks, pick{KindEndpoint, "--arm-endpoint " + redacted(s.ARMEndpoint), s.origin("arm-endpoint")})
	}
	return picks, nil
}

// strongest is the pick of the highest rank; picks of that rank must agree.
func strongest(picks []pick) (*pick, error) {
	var best *pick
	for i := range picks {
		p := &picks[i]
		switch {
		case best == nil || p.origin.Rank > best.origin.Rank:
			best = p
		case p.origin.Rank == best.origin.Rank && p.kind != best.kind:
			return nil, targetErrorf("%s and %s choose different targets: give one", best, p)
		}
	}
	return best, nil
}

func (s Settings) origin(flag string) Origin {
	if o, ok := s.Origins[flag]; ok {
		return o
	}
	return Origin{Rank: RankFlag}
}

func (s Settings) where(flag string) string {
	if w := s.origin(flag).Where; w != "" {
		return " (" + w + ")"
	}
	return ""
}

// redacted hides a password in an endpoint URL: messages echo it, and the
// endpoint check refuses such a URL only after the target is chosen.
func redacted(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		return u.Redacted()
	}
	return raw
}
