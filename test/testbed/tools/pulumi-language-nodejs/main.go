// Command pulumi-language-nodejs is a STAND-IN for Pulumi's Node.js language
// host, written for the kubespaces test bed.
//
// The real host (module github.com/pulumi/pulumi/sdk/nodejs/cmd/
// pulumi-language-nodejs/v3) is not served by the Go module proxy reachable
// here, so this small host implements the parts of the LanguageRuntime gRPC
// service that `pulumi up/preview/destroy` of a Node.js/TypeScript project
// and a Node.js provider plugin (PulumiPlugin.yaml, runtime nodejs) need:
// Handshake, GetPluginInfo, GetRequiredPlugins/Packages (from node_modules
// package.json files with "pulumi": {"resource": true}), Run (spawns
// @pulumi/pulumi/cmd/run), RunPlugin (spawns @pulumi/pulumi/cmd/run-plugin),
// GetProgramDependencies and About. Everything else answers Unimplemented
// (e.g. InstallDependencies: run npm install yourself; no code generation).
//
// Automation API inline programs do not use a language host at all.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is set by the test bed's build (-X main.version=...).
var version = "3.248.0"

// exitCodeAlreadyLogged is what @pulumi/pulumi's run script exits with after
// it has printed a user-actionable error itself.
const exitCodeAlreadyLogged = 32

type host struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	engineAddress string
	// options are the `-key=value` flags the engine passes (runtime options
	// from Pulumi.yaml, e.g. typescript, tsconfig, nodeargs, and root).
	options map[string]string
}

func main() {
	h := &host{options: map[string]string{}}
	for _, a := range os.Args[1:] {
		if strings.HasPrefix(a, "-") {
			k, v, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
			h.options[k] = v
		} else {
			h.engineAddress = a // the positional engine address comes last
		}
	}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Init: func(s *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(s, h)
			return nil
		},
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs (test bed stand-in): %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-language-nodejs (test bed stand-in): %v\n", err)
		os.Exit(1)
	}
}

func (h *host) Handshake(_ context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	if req.GetEngineAddress() != "" {
		h.engineAddress = req.GetEngineAddress()
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (h *host) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// option reads a runtime option from ProgramInfo.options, then from flags.
func (h *host) option(info *pulumirpc.ProgramInfo, key string) string {
	if info != nil && info.GetOptions() != nil {
		if v, ok := info.GetOptions().GetFields()[key]; ok {
			switch x := v.AsInterface().(type) {
			case string:
				return x
			case bool:
				return strconv.FormatBool(x)
			case float64:
				return strconv.FormatFloat(x, 'f', -1, 64)
			}
		}
	}
	return h.options[key]
}

func programDir(info *pulumirpc.ProgramInfo, pwd string) string {
	if info != nil && info.GetProgramDirectory() != "" {
		return info.GetProgramDirectory()
	}
	return pwd
}

// findSDKFile walks up from dir to find node_modules/@pulumi/pulumi/<rel>.
func findSDKFile(dir, rel string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(d, "node_modules", "@pulumi", "pulumi", rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("@pulumi/pulumi not found in node_modules above %s: run npm install", dir)
		}
		d = parent
	}
}

type packageJSON struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Pulumi  struct {
		Resource bool   `json:"resource"`
		Name     string `json:"name"`
		Version  string `json:"version"`
		Server   string `json:"server"`
	} `json:"pulumi"`
}

// pluginPackages lists resource plugins named by packages in the nearest
// node_modules (top level and scoped packages, like the real host's result
// for a flat npm install).
func pluginPackages(dir string) ([]*pulumirpc.PackageDependency, error) {
	sdk, err := findSDKFile(dir, "package.json")
	if err != nil {
		return nil, nil // no node_modules: nothing required
	}
	nm := filepath.Dir(filepath.Dir(filepath.Dir(sdk)))
	var files []string
	entries, _ := os.ReadDir(nm)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "@") {
			scoped, _ := os.ReadDir(filepath.Join(nm, e.Name()))
			for _, s := range scoped {
				files = append(files, filepath.Join(nm, e.Name(), s.Name(), "package.json"))
			}
		} else {
			files = append(files, filepath.Join(nm, e.Name(), "package.json"))
		}
	}
	seen := map[string]bool{}
	var deps []*pulumirpc.PackageDependency
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var p packageJSON
		if json.Unmarshal(b, &p) != nil || !p.Pulumi.Resource {
			continue
		}
		name := p.Pulumi.Name
		if name == "" {
			name = strings.TrimPrefix(strings.TrimPrefix(p.Name, "@pulumi/"), "@")
		}
		v := p.Pulumi.Version
		if v == "" {
			v = p.Version
		}
		if v != "" && !strings.HasPrefix(v, "v") {
			v = "v" + v
		}
		if seen[name+v] {
			continue
		}
		seen[name+v] = true
		deps = append(deps, &pulumirpc.PackageDependency{Kind: "resource", Name: name, Version: v, Server: p.Pulumi.Server})
	}
	return deps, nil
}

func (h *host) GetRequiredPackages(_ context.Context, req *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	deps, err := pluginPackages(programDir(req.GetInfo(), "."))
	if err != nil {
		return nil, err
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: deps}, nil
}

func (h *host) GetRequiredPlugins(_ context.Context, req *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	deps, err := pluginPackages(programDir(req.GetInfo(), req.GetProgram()))
	if err != nil {
		return nil, err
	}
	var plugins []*pulumirpc.PluginDependency
	for _, d := range deps {
		plugins = append(plugins, &pulumirpc.PluginDependency{Kind: d.Kind, Name: d.Name, Version: d.Version, Server: d.Server})
	}
	return &pulumirpc.GetRequiredPluginsResponse{Plugins: plugins}, nil
}

func (h *host) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

func (h *host) About(context.Context, *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, err
	}
	out, _ := exec.Command(node, "--version").Output()
	return &pulumirpc.AboutResponse{
		Executable: node,
		Version:    strings.TrimSpace(string(out)),
		Metadata:   map[string]string{"stand-in": "kubespaces test bed pulumi-language-nodejs"},
	}, nil
}

// nodeEnv adds the TypeScript settings the run scripts read.
func (h *host) nodeEnv(info *pulumirpc.ProgramInfo, env []string) []string {
	ts := h.option(info, "typescript")
	env = append(env, "PULUMI_NODEJS_TYPESCRIPT="+strconv.FormatBool(ts != "false"))
	if p := h.option(info, "tsconfig"); p != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+p)
	}
	return env
}

func (h *host) nodeArgs(info *pulumirpc.ProgramInfo) []string {
	return strings.Fields(h.option(info, "nodeargs"))
}

func (h *host) Run(_ context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	dir := programDir(info, req.GetPwd())
	runPath, err := findSDKFile(dir, "cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	args := append(h.nodeArgs(info), runPath)
	add := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k+"="+v)
		}
	}
	add("organization", req.GetOrganization())
	add("project", req.GetProject())
	add("stack", req.GetStack())
	if info != nil {
		add("root-directory", info.GetRootDirectory())
	}
	add("pwd", req.GetPwd())
	add("monitor", req.GetMonitorAddress())
	add("engine", h.engineAddress)
	if req.GetParallel() > 0 {
		add("parallel", strconv.Itoa(int(req.GetParallel())))
	}
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	program := req.GetProgram()
	if info != nil && info.GetEntryPoint() != "" {
		program = filepath.Join(info.GetProgramDirectory(), info.GetEntryPoint())
	}
	if program == "" {
		program = "."
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	config, err := json.Marshal(req.GetConfig())
	if err != nil {
		return nil, err
	}
	secretKeys, err := json.Marshal(req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), "PULUMI_CONFIG="+string(config), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys))
	env = h.nodeEnv(info, env)

	cmd := exec.Command("node", args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = env
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			if exit.ExitCode() == exitCodeAlreadyLogged {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exit.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: "could not run node: " + err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// RunPlugin starts a Node.js provider plugin (PulumiPlugin.yaml runtime
// nodejs) through @pulumi/pulumi/cmd/run-plugin and streams its output.
func (h *host) RunPlugin(req *pulumirpc.RunPluginRequest, server grpc.ServerStreamingServer[pulumirpc.RunPluginResponse]) error {
	info := req.GetInfo()
	dir := programDir(info, req.GetPwd())
	runPlugin, err := findSDKFile(dir, "cmd/run-plugin")
	if err != nil {
		return status.Error(codes.FailedPrecondition, err.Error())
	}
	program := dir
	if req.GetProgram() != "" && info == nil {
		program = req.GetProgram()
	}
	args := append(h.nodeArgs(info), runPlugin)
	if req.GetPwd() != "" {
		args = append(args, "--pwd="+req.GetPwd())
	}
	args = append(args, program)
	args = append(args, req.GetArgs()...)

	cmd := exec.CommandContext(server.Context(), "node", args...)
	cmd.Dir = req.GetPwd()
	cmd.Env = h.nodeEnv(info, append(os.Environ(), req.GetEnv()...))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	var mu sync.Mutex
	send := func(r *pulumirpc.RunPluginResponse) {
		mu.Lock()
		defer mu.Unlock()
		_ = server.Send(r)
	}
	var wg sync.WaitGroup
	pump := func(r io.Reader, wrap func([]byte) *pulumirpc.RunPluginResponse) {
		defer wg.Done()
		br := bufio.NewReader(r)
		buf := make([]byte, 32*1024)
		for {
			n, err := br.Read(buf)
			if n > 0 {
				send(wrap(append([]byte(nil), buf[:n]...)))
			}
			if err != nil {
				return
			}
		}
	}
	wg.Add(2)
	go pump(stdout, func(b []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stdout{Stdout: b}}
	})
	go pump(stderr, func(b []byte) *pulumirpc.RunPluginResponse {
		return &pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Stderr{Stderr: b}}
	})
	wg.Wait()
	code := 0
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return err
		}
		code = exit.ExitCode()
	}
	send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(code)}})
	return nil
}
