{{/* The API's pod template: `node dist/cli/start/api-main.js` with the shared configuration and the API's secrets. */}}
{{- define "durable-mcp.api.podTemplate" -}}
{{- $api := .Values.api -}}
{{- include "durable-mcp.requireSecrets" (list . "api") -}}
{{- $drainMs := include "durable-mcp.configOrDefault" (list . "API_DRAIN_GRACE_MS") | int -}}
{{- $needed := add $api.preStopSleepSeconds (div (add $drainMs 999) 1000) 5 -}}
{{- if lt (int $api.terminationGracePeriodSeconds) (int $needed) -}}
{{- fail (printf "api.terminationGracePeriodSeconds (%v) must cover preStopSleepSeconds, API_DRAIN_GRACE_MS and 5 s to close connections: at least %d" $api.terminationGracePeriodSeconds $needed) -}}
{{- end -}}
metadata:
  labels:
    {{- include "durable-mcp.labels" (list . "api") | nindent 4 }}
    {{- with $api.podLabels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  annotations:
    checksum/config: {{ include "durable-mcp.configChecksum" . }}
    {{- with $api.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  {{- include "durable-mcp.podBasics" . | nindent 2 }}
  terminationGracePeriodSeconds: {{ $api.terminationGracePeriodSeconds }}
  {{- with $api.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  containers:
    - name: api
      image: {{ include "durable-mcp.image" (list . "api") }}
      imagePullPolicy: {{ .Values.image.pullPolicy }}
      command: ["node", "dist/cli/start/api-main.js"]
      ports:
        - name: http
          containerPort: {{ $api.port }}
          protocol: TCP
      envFrom:
        - configMapRef:
            name: {{ include "durable-mcp.fullname" . }}
      env:
        - name: NODE_OPTIONS
          value: {{ $api.nodeOptions | quote }}
        {{- with include "durable-mcp.secretEnv" (list . "api" list) | trim }}{{ . | nindent 8 }}{{- end }}
        {{- with $api.additionalEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      {{- with $api.startupProbe }}
      startupProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $api.livenessProbe }}
      livenessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with $api.readinessProbe }}
      readinessProbe:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      lifecycle:
        preStop:
          exec:
            # Out of the Service's endpoints before SIGTERM closes the listener.
            command: ["sleep", {{ $api.preStopSleepSeconds | quote }}]
      resources:
        {{- toYaml $api.resources | nindent 8 }}
      securityContext:
        {{- toYaml .Values.containerSecurityContext | nindent 8 }}
      volumeMounts:
        {{- include "durable-mcp.volumeMounts" . | nindent 8 }}
        {{- with $api.additionalVolumeMounts }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
  volumes:
    {{- include "durable-mcp.volumes" . | nindent 4 }}
    {{- with $api.additionalVolumes }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with include "durable-mcp.topologySpread" (list . "api" $api.topologySpread) | trim }}{{ . | nindent 2 }}{{- end }}
  {{- with $api.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $api.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $api.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}
