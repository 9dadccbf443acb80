;;; drive.el --- drive mm-acp with xenodium/acp.el in batch mode  -*- lexical-binding: t -*-
;; Usage: emacs --batch -L <acp.el checkout> -l acp -l scripts/emacs/drive.el (xenodium/acp.el)
;; Env: DRIVE_BIN (the mm-acp.js to run; default apps/acp-stdio/bin/mm-acp.js under the directory Emacs starts in), DRIVE_CWD, DRIVE_PROMPTS (prompts separated by "|||"), DRIVE_KINDS (permission option kinds to
;; choose, in order, separated by ","; "reject_once" etc; the last repeats).
(require 'acp)
(require 'map)
(setq debug-on-error nil)
(defvar drive-done nil)
(defvar drive-kinds (split-string (or (getenv "DRIVE_KINDS") "allow_once") ","))
(defun drive-next-kind ()
  (if (cdr drive-kinds) (pop drive-kinds) (car drive-kinds)))
(defvar drive-client
  (acp-make-client :command "node"
                   :command-params (list (or (getenv "DRIVE_BIN") (expand-file-name "apps/acp-stdio/bin/mm-acp.js")) "--log-level" "quiet")))
(acp-subscribe-to-notifications
 :client drive-client
 :on-notification
 (lambda (n)
   (let* ((u (map-nested-elt n '(params update)))
          (kind (map-elt u 'sessionUpdate)))
     (pcase kind
       ("agent_message_chunk" (princ (format "[agent] %s\n" (map-nested-elt u '(content text)))))
       ("tool_call" (princ (format "[tool_call] %s (%s)\n" (map-elt u 'title) (map-elt u 'status))))
       ("tool_call_update" (when (map-elt u 'status) (princ (format "[tool_call_update] %s %s\n" (map-elt u 'toolCallId) (map-elt u 'status)))))
       ("available_commands_update" (princ (format "[commands] %s\n" (mapconcat (lambda (c) (map-elt c 'name)) (map-elt u 'availableCommands) " "))))
       (_ (princ (format "[%s]\n" kind)))))))
(acp-subscribe-to-requests
 :client drive-client
 :on-request
 (lambda (r)
   (let ((method (map-elt r 'method)))
     (cond
      ((equal method "session/request_permission")
       (let* ((params (map-elt r 'params))
              (options (append (map-elt params 'options) nil))
              (want (drive-next-kind))
              (chosen (or (seq-find (lambda (o) (equal (map-elt o 'kind) want)) options) (car options))))
         (princ (format "[permission] %s\n" (map-nested-elt params '(toolCall title))))
         (dolist (o options) (princ (format "   option %-14s %s\n" (map-elt o 'kind) (map-elt o 'name))))
         (princ (format "   -> chose %s\n" (map-elt chosen 'name)))
         (acp-send-response :client drive-client
                            :response (acp-make-session-request-permission-response
                                       :request-id (map-elt r 'id) :option-id (map-elt chosen 'optionId)))))
      (t (princ (format "[request] %s (unanswered)\n" method)))))))
(defun drive-prompts (sid prompts)
  (if (null prompts) (setq drive-done t)
    (princ (format "[user] %s\n" (car prompts)))
    (acp-send-request :client drive-client
                      :request (acp-make-session-prompt-request :session-id sid :prompt (vector `((type . "text") (text . ,(car prompts)))))
                      :on-success (lambda (resp) (princ (format "[done] %s\n" (map-elt resp 'stopReason))) (drive-prompts sid (cdr prompts)))
                      :on-failure (lambda (e) (princ (format "[error] %S\n" e)) (setq drive-done t)))))
(acp-send-request
 :client drive-client
 :request (acp-make-initialize-request :protocol-version 1 :read-text-file-capability nil :write-text-file-capability nil)
 :on-success
 (lambda (_)
   (acp-send-request
    :client drive-client
    :request (acp-make-session-new-request :cwd (getenv "DRIVE_CWD"))
    :on-success (lambda (resp)
                  (let ((sid (map-elt resp 'sessionId)))
                    (princ (format "[session] %s\n" sid))
                    (drive-prompts sid (split-string (or (getenv "DRIVE_PROMPTS") "hello") "|||"))))
    :on-failure (lambda (e) (princ (format "[error] %S\n" e)) (setq drive-done t))))
 :on-failure (lambda (e) (princ (format "[error] %S\n" e)) (setq drive-done t)))
(let ((deadline (+ (float-time) (string-to-number (or (getenv "DRIVE_TIMEOUT") "60")))))
  (while (and (not drive-done) (< (float-time) deadline))
    (accept-process-output nil 0.1)))
(acp-shutdown :client drive-client)
