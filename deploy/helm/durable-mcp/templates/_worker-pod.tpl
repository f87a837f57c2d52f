{{/*
The worker's pod template, for its Deployment or for the Worker Controller's WorkerDeployment:
`node dist/cli/start/worker-main.js` with the shared configuration and the worker's secrets.
*/}}
{{- define "durable-mcp.worker.podTemplate" -}}
{{- $worker := .Values.worker -}}
{{- $pinned := eq $worker.versioning "pinned" -}}
{{- include "durable-mcp.requireSecrets" (list . "worker") -}}
{{- $graceMs := include "durable-mcp.configOrDefault" (list . "WORKER_SHUTDOWN_GRACE_MS") | int -}}
{{- $needed := add (div (add $graceMs 999) 1000) 5 -}}
{{- if lt (int $worker.terminationGracePeriodSeconds) (int $needed) -}}
{{- fail (printf "worker.terminationGracePeriodSeconds (%v) must cover WORKER_SHUTDOWN_GRACE_MS and 5 s to close connections: at least %d" $worker.terminationGracePeriodSeconds $needed) -}}
{{- end -}}
{{- /* Pinned, the Connection hands the controller's workers TEMPORAL_API_KEY itself. */ -}}
{{- $except := ternary (list "TEMPORAL_API_KEY") (list) $pinned -}}
metadata:
  labels:
    {{- include "durable-mcp.labels" (list . "worker") | nindent 4 }}
    {{- with $worker.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    checksum/config: {{ include "durable-mcp.configChecksum" . }}
    {{- with $worker.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  {{- include "durable-mcp.podBasics" . | nindent 2 }}
  terminationGracePeriodSeconds: {{ $worker.terminationGracePeriodSeconds }}
  {{- with $worker.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  containers:
    - name: worker
      image: {{ include "durable-mcp.image" (list . "worker") }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      {{- if $pinned }}
      # The Worker Controller gives each version's pods TEMPORAL_DEPLOYMENT_NAME and
      # TEMPORAL_WORKER_BUILD_ID (appended to env, so Kubernetes expands them here): the worker
      # reads them as WORKER_DEPLOYMENT_NAME and WORKER_BUILD_ID.
      command:
        - env
        - WORKER_DEPLOYMENT_NAME=$(TEMPORAL_DEPLOYMENT_NAME)
        - WORKER_BUILD_ID=$(TEMPORAL_WORKER_BUILD_ID)
        - node
        - dist/cli/start/worker-main.js
      {{- else }}
      command: ["node", "dist/cli/start/worker-main.js"]
      {{- end }}
      ports:
        - name: metrics
          containerPort: {{ $worker.metrics.port }}
          protocol: TCP
      envFrom:
        - configMapRef:
            name: {{ include "durable-mcp.fullname" . }}
      env:
        - name: NODE_OPTIONS
          value: {{ $worker.nodeOptions | quote }}
        {{- with include "durable-mcp.secretEnv" (list . "worker" $except) | trim }}{{ . | nindent 8 }}{{- end }}
        {{- with $worker.additionalEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $worker.startupProbe }}
      startupProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $worker.livenessProbe }}
      livenessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $worker.readinessProbe }}
      readinessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      resources:
        {{- toYaml $worker.resources | nindent 8 }}
      securityContext:
        {{- toYaml .Values.containerSecurityContext | nindent 8 }}
      volumeMounts:
        {{- include "durable-mcp.volumeMounts" . | nindent 8 }}
        {{- with $worker.additionalVolumeMounts }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
  volumes:
    {{- include "durable-mcp.volumes" . | nindent 4 }}
    {{- with $worker.additionalVolumes }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with include "durable-mcp.topologySpread" (list . "worker" $worker.topologySpread) | trim }}{{ . | nindent 2 }}{{- end }}
  {{- with $worker.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $worker.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $worker.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
