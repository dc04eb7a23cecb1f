# Arabic (العربية): a right-to-left locale. Ids mirror locales/en/chat.ftl exactly (tests/core/locales.rs).
# Number-dependent messages use the Arabic CLDR plural categories: zero, one, two, few, many, other.

chat-input-placeholder = اكتب رسالتك...
chat-input-attach-files = إرفاق ملفات
chat-input-send = إرسال الرسالة
chat-input-stop = إيقاف التوليد
chat-input-remove-file = إزالة الملف
chat-input-helper = اضغط Enter للإرسال، أو Shift+Enter لسطر جديد
chat-input-label = الرسالة
chat-input-waiting-for-answer = ينتظر المساعد إجابتك أعلاه.
chat-input-send-cancels-request = سيؤدي إرسال رسالة إلى إلغاء الطلب المعلّق.

chat-history-title = المحادثات
chat-history-new-chat = محادثة جديدة
chat-history-search-placeholder = ابحث في المحادثات...
chat-history-clear-search = مسح البحث
chat-history-no-conversations = لا توجد محادثات بعد
chat-history-no-matching-conversations = لا توجد محادثات مطابقة
chat-history-load-more = تحميل المزيد
chat-history-loading = جارٍ التحميل...
chat-history-delete-conversation = حذف المحادثة
chat-history-close = إغلاق قائمة المحادثات
chat-history-search-label = البحث في المحادثات
chat-history-rename-conversation = إعادة تسمية المحادثة
chat-history-rename-title = عنوان المحادثة

chat-actions-copy = نسخ
chat-actions-copied = تم النسخ!
chat-actions-regenerate = إعادة التوليد
chat-actions-good-response = رد جيد
chat-actions-bad-response = رد سيئ
chat-actions-failed-to-copy = تعذّر النسخ
chat-actions-label = إجراءات الرسالة

chat-message-sources = المصادر
chat-message-source = المصدر { $index }
chat-message-show-less = عرض أقل
chat-message-show-all = عرض الكل ({ $count })
chat-message-tool-calls = استدعاءات الأدوات
chat-message-user = أنت
chat-message-ai = ذ.ا
# The default avatar badge of the person's messages (one letter).
chat-message-avatar-user = أ
chat-message-error = خطأ
chat-find-open = البحث في المحادثة
chat-find-label = البحث في المحادثة
chat-find-placeholder = البحث في المحادثة
chat-find-count = { $index } من { $count }
chat-find-none = لا توجد نتائج
chat-find-previous = النتيجة السابقة
chat-find-next = النتيجة التالية
chat-find-close = إغلاق البحث
chat-message-list-label = رسائل المحادثة
chat-message-list-load-older = تحميل الرسائل الأقدم
chat-message-list-loading-older = جارٍ تحميل الرسائل الأقدم...
chat-message-thinking = المساعد يفكّر
chat-message-interrupted = انقطع
chat-message-failed = فشلت المهمة:
chat-message-retry = إعادة المحاولة

chat-markdown-code = شيفرة
chat-markdown-table = جدول
chat-markdown-task = مهمة
chat-markdown-image = صورة: { $name }

chat-tool-call-view-details = عرض التفاصيل
chat-tool-call-hide-details = إخفاء التفاصيل
chat-tool-call-older-calls = { $count ->
    [zero] لا استدعاءات أقدم
    [one] استدعاء واحد أقدم
    [two] استدعاءان أقدم
    [few] { $count } استدعاءات أقدم
    [many] { $count } استدعاءً أقدم
   *[other] { $count } استدعاء أقدم
}
chat-tool-call-expand = توسيع
chat-tool-call-collapse = طي
chat-tool-call-input = المدخلات
chat-tool-call-output = المخرجات
chat-tool-call-executing = جارٍ التنفيذ...
chat-tool-call-completed = اكتمل
chat-tool-call-duration = { $seconds } ث
chat-tool-call-previous-steps = { $count ->
    [zero] لا خطوات سابقة
    [one] خطوة واحدة سابقة
    [two] خطوتان سابقتان
    [few] { $count } خطوات سابقة
    [many] { $count } خطوةً سابقة
   *[other] { $count } خطوة سابقة
}
chat-tool-call-unknown-tool = أداة غير معروفة

chat-header-menu = فتح القائمة
chat-header-select-agent = اختيار وكيل
chat-header-change-agent = تغيير الوكيل

chat-empty-title = ابدأ محادثة
chat-empty-subtitle = اكتب رسالتك أدناه للبدء
chat-empty-start-typing = ابدأ الكتابة...

chat-loading-conversation = جارٍ تحميل المحادثة...

chat-error-dismiss = إغلاق
chat-error-load-conversation-failed = تعذّر تحميل المحادثة
chat-error-load-conversations-failed = تعذّر تحميل المحادثات
chat-error-load-more-failed = تعذّر تحميل مزيد من المحادثات
chat-error-load-older-messages-failed = تعذّر تحميل الرسائل الأقدم
chat-error-delete-conversation-failed = تعذّر حذف المحادثة
chat-error-rename-conversation-failed = تعذّرت إعادة تسمية المحادثة
chat-error-file-request-failed = تعذّر رفع الملف أو قراءته أو حذفه
chat-error-client-not-initialized = لم تتم تهيئة العميل
chat-error-send-failed = تعذّر إرسال الرسالة
chat-error-retry = إعادة المحاولة
chat-error-network = تعذّر الوصول إلى خادم الوكيل. تحقق من اتصالك وحاول مرة أخرى.
chat-error-other-origin = حاول الخادم إرسال هذا إلى عنوان آخر، لذلك لم يُرسل. لم يغادر أي شيء كتبته هذا الموقع.
chat-error-stream-cut = انقطع الاتصال قبل اكتمال الرد.
chat-error-storage-load = تعذّر تحميل المحادثات المحفوظة. تُحفظ المحادثات الجديدة حتى إغلاق الصفحة.
chat-error-chunk = تعذّر تحميل جزء من المحادثة. تحقّق من الاتصال وأعد المحاولة.
chat-chunk-loading = جارٍ التحميل...
chat-chunk-failed = تعذّر تحميل هذا الجزء من المحادثة.
chat-error-storage-save = تعذّر حفظ هذه المحادثة في هذا المتصفح: مساحة التخزين ممتلئة أو محظورة.
chat-error-storage-unreadable = { $count ->
    [one] تعذّرت قراءة محادثة محفوظة واحدة فتم تخطيها.
   *[other] تعذّرت قراءة { $count } من المحادثات المحفوظة فتم تخطيها.
}
chat-error-bad-response = أرسل الخادم ردًا تعذّرت قراءته.
chat-error-request-failed = فشل الطلب
chat-error-no-agent = لا يتوفر أي وكيل على هذا الخادم.

chat-error-code-action-expired = انتهت صلاحية هذا الطلب.
chat-error-code-action-cancelled = تم إلغاء هذا الطلب.
chat-error-code-action-not-pending = تمت الإجابة عن هذا الطلب بالفعل.
chat-error-code-action-forbidden = لا يمكن الرد على هذا الطلب إلا للشخص الذي بدأ هذه المحادثة.
chat-error-code-action-pending = ينتظر المساعد إجابتك أعلاه. أجب عنها قبل إرسال رسالة جديدة.
chat-error-code-pending-action = ينتظر المساعد إجابتك أعلاه. أجب عنها قبل إرسال رسالة جديدة.
chat-error-code-conversation-busy = لا يزال المساعد يعمل على هذه المحادثة. حاول مرة أخرى بعد قليل.
chat-error-code-rate-limited = طلبات كثيرة جدًا. انتظر قليلًا ثم حاول مرة أخرى.
chat-error-rate-limited-seconds = { $seconds ->
    [one] طلبات كثيرة جدًا. حاول مرة أخرى بعد ثانية واحدة.
    [two] طلبات كثيرة جدًا. حاول مرة أخرى بعد ثانيتين.
    [few] طلبات كثيرة جدًا. حاول مرة أخرى بعد { $seconds } ثوانٍ.
    [many] طلبات كثيرة جدًا. حاول مرة أخرى بعد { $seconds } ثانية.
   *[other] طلبات كثيرة جدًا. حاول مرة أخرى بعد { $seconds } ثانية.
}
chat-error-rate-limited-minutes = { $minutes ->
    [one] طلبات كثيرة جدًا. حاول مرة أخرى بعد دقيقة واحدة.
    [two] طلبات كثيرة جدًا. حاول مرة أخرى بعد دقيقتين.
    [few] طلبات كثيرة جدًا. حاول مرة أخرى بعد { $minutes } دقائق.
    [many] طلبات كثيرة جدًا. حاول مرة أخرى بعد { $minutes } دقيقة.
   *[other] طلبات كثيرة جدًا. حاول مرة أخرى بعد { $minutes } دقيقة.
}
chat-error-code-quota-exceeded = تم بلوغ الحد الأقصى لحصة الاستخدام.
chat-error-code-message-too-long = الرسالة طويلة جدًا.
chat-error-code-guardrail-blocked = حظرت إحدى قواعد الأمان هذا الطلب.
chat-error-code-file-too-large = أحد الملفات كبير جدًا.
chat-error-code-unsupported-file-type = نوع الملف هذا غير مدعوم.
chat-error-code-attachments-disabled = المرفقات معطّلة لهذا المساعد.
chat-error-code-action-version-conflict = تغيّر هذا الطلب في هذه الأثناء، وقد أُعيد تحميله.
chat-error-server-failed = أبلغ الخادم عن خطأ.
chat-error-task-failed = لم يُكمل الوكيل المهمة.
chat-error-task-canceled = أُلغيت المهمة.
chat-error-refused-does-not-fit = لم تُرسل: الإجابة لا تناسب ما طُلب.

chat-file-too-large = { $name } كبير جدًا (الحد الأقصى { $max })
chat-file-too-many = الحد الأقصى لعدد الملفات المرفقة هو { $max }
chat-file-invalid-type = الملف { $name } من نوع غير مسموح به
chat-file-upload-failed = فشل الرفع
chat-file-download = تنزيل
chat-file-read-failed = تعذّرت قراءة الملف { $name }
chat-file-remove = إزالة { $name }
chat-file-attachments = المرفقات
chat-file-reading = جارٍ قراءة { $name }…

chat-time-just-now = الآن
chat-time-minutes-ago = منذ { $count } د
chat-time-hours-ago = منذ { $count } س
chat-time-days-ago = منذ { $count } ي

chat-theme-toggle-light = التبديل إلى المظهر الفاتح
chat-theme-toggle-dark = التبديل إلى المظهر الداكن

chat-action-details = التفاصيل
chat-action-side-effects = الآثار الجانبية
chat-action-approve = موافقة
chat-action-deny = رفض
chat-action-add-reason = إضافة سبب
chat-action-remove-reason = إزالة السبب
chat-action-reason-label = السبب (اختياري)
chat-action-remember = لا تسألني مجددًا عن هذه الأداة في هذه المحادثة
chat-action-edit-arguments = تعديل الوسائط
chat-action-reset-arguments = إعادة تعيين الوسائط
chat-action-arguments-edited = تم تعديل الوسائط
chat-action-preview = معاينة
chat-action-send = إرسال
chat-action-skip = تخطٍّ
chat-action-required = *
chat-action-free-text-label = إجابتك
chat-action-approval-label = موافقة مطلوبة: { $tool }
chat-action-question-label = سؤال من المساعد
chat-action-sending = جارٍ الإرسال...
chat-action-expires-hours = { $n ->
    [zero] تنتهي المهلة بعد { $n } ساعة
    [one] تنتهي المهلة بعد ساعة واحدة
    [two] تنتهي المهلة بعد ساعتين
    [few] تنتهي المهلة بعد { $n } ساعات
    [many] تنتهي المهلة بعد { $n } ساعة
   *[other] تنتهي المهلة بعد { $n } ساعة
}
chat-action-expires-minutes = { $n ->
    [zero] تنتهي المهلة بعد { $n } دقيقة
    [one] تنتهي المهلة بعد دقيقة واحدة
    [two] تنتهي المهلة بعد دقيقتين
    [few] تنتهي المهلة بعد { $n } دقائق
    [many] تنتهي المهلة بعد { $n } دقيقة
   *[other] تنتهي المهلة بعد { $n } دقيقة
}
chat-action-expires-seconds = { $n ->
    [zero] تنتهي المهلة بعد { $n } ثانية
    [one] تنتهي المهلة بعد ثانية واحدة
    [two] تنتهي المهلة بعد ثانيتين
    [few] تنتهي المهلة بعد { $n } ثوانٍ
    [many] تنتهي المهلة بعد { $n } ثانية
   *[other] تنتهي المهلة بعد { $n } ثانية
}
chat-action-status-approved = تمت الموافقة
chat-action-status-approved-edited = تمت الموافقة بوسائط معدّلة
chat-action-status-denied = تم الرفض
chat-action-status-denied-with-reason = تم الرفض - { $reason }
chat-action-status-answered = تمت الإجابة
chat-action-status-skipped = تم التخطي
chat-action-status-expired = انتهت الصلاحية
chat-action-status-cancelled = تم الإلغاء
chat-action-status-remembered = تم حفظ الاختيار لهذه المحادثة
chat-action-status-waiting-elsewhere = بانتظار الموافقة في تطبيق آخر
chat-action-announce-approval = يحتاج المساعد إلى موافقتك: { $tool }
chat-action-announce-question = لدى المساعد سؤال
chat-action-schema-invalid-json = ليس JSON صالحًا (السطر { $line }، العمود { $column })
chat-action-schema-not-object = يجب أن تكون الوسائط كائن JSON
chat-action-schema-type = { $path }: يجب أن يكون { $expected }
chat-action-schema-enum = { $path }: يجب أن يكون واحدًا من { $allowed }
chat-action-schema-const = { $path }: يجب أن يكون { $expected }
chat-action-schema-required = { $path }: الخاصية "{ $property }" مطلوبة
chat-action-schema-additional-properties = { $path }: الخاصية "{ $property }" غير مسموح بها
chat-action-schema-minimum = { $path }: يجب ألا يقل عن { $limit }
chat-action-schema-maximum = { $path }: يجب ألا يزيد على { $limit }
chat-action-schema-exclusive-minimum = { $path }: يجب أن يكون أكبر من { $limit }
chat-action-schema-exclusive-maximum = { $path }: يجب أن يكون أصغر من { $limit }
chat-action-schema-min-length = { $limit ->
    [zero] { $path }: يجب أن يحتوي على { $limit } حرف على الأقل
    [one] { $path }: يجب أن يحتوي على حرف واحد على الأقل
    [two] { $path }: يجب أن يحتوي على حرفين على الأقل
    [few] { $path }: يجب أن يحتوي على { $limit } أحرف على الأقل
    [many] { $path }: يجب أن يحتوي على { $limit } حرفًا على الأقل
   *[other] { $path }: يجب أن يحتوي على { $limit } حرف على الأقل
}
chat-action-schema-max-length = { $limit ->
    [zero] { $path }: يجب ألا يحتوي على أي حرف
    [one] { $path }: يجب أن يحتوي على حرف واحد على الأكثر
    [two] { $path }: يجب أن يحتوي على حرفين على الأكثر
    [few] { $path }: يجب أن يحتوي على { $limit } أحرف على الأكثر
    [many] { $path }: يجب أن يحتوي على { $limit } حرفًا على الأكثر
   *[other] { $path }: يجب أن يحتوي على { $limit } حرف على الأكثر
}
chat-action-schema-pattern = { $path }: يجب أن يطابق النمط { $pattern }
chat-action-schema-min-items = { $limit ->
    [zero] { $path }: يجب أن يحتوي على { $limit } عنصر على الأقل
    [one] { $path }: يجب أن يحتوي على عنصر واحد على الأقل
    [two] { $path }: يجب أن يحتوي على عنصرين على الأقل
    [few] { $path }: يجب أن يحتوي على { $limit } عناصر على الأقل
    [many] { $path }: يجب أن يحتوي على { $limit } عنصرًا على الأقل
   *[other] { $path }: يجب أن يحتوي على { $limit } عنصر على الأقل
}
chat-action-schema-max-items = { $limit ->
    [zero] { $path }: يجب ألا يحتوي على أي عنصر
    [one] { $path }: يجب أن يحتوي على عنصر واحد على الأكثر
    [two] { $path }: يجب أن يحتوي على عنصرين على الأكثر
    [few] { $path }: يجب أن يحتوي على { $limit } عناصر على الأكثر
    [many] { $path }: يجب أن يحتوي على { $limit } عنصرًا على الأكثر
   *[other] { $path }: يجب أن يحتوي على { $limit } عنصر على الأكثر
}
chat-action-schema-any-of = { $path }: يجب أن يطابق واحدًا من: { $variants }
chat-action-schema-one-of = { $path }: يجب أن يطابق واحدًا فقط من: { $variants } (يطابق { $matched })
chat-action-schema-one-of-none = { $path }: يجب أن يطابق واحدًا من: { $variants }
chat-action-schema-too-deep = { $path }: التداخل عميق جدًا (عدد المستويات يتجاوز { $limit })
chat-action-schema-multiple-of = { $path }: يجب أن يكون من مضاعفات { $divisor }
chat-action-schema-format = { $path }: يجب أن يكون { $format } صالحًا
chat-action-schema-unique-items = { $path }: العنصران { $first } و{ $second } متطابقان؛ يجب أن يكون كل عنصر مختلفًا
chat-action-schema-min-contains = { $path }: يجب أن يطابق { $limit } عنصر على الأقل ما يجب أن تحتويه القائمة
chat-action-schema-max-contains = { $path }: لا يجوز أن يطابق أكثر من { $limit } عنصر ما تحتويه القائمة
chat-action-schema-min-properties = { $limit ->
    [zero] { $path }: يجب أن يحتوي على { $limit } خاصية على الأقل
    [one] { $path }: يجب أن يحتوي على خاصية واحدة على الأقل
    [two] { $path }: يجب أن يحتوي على خاصيتين على الأقل
    [few] { $path }: يجب أن يحتوي على { $limit } خصائص على الأقل
    [many] { $path }: يجب أن يحتوي على { $limit } خاصية على الأقل
   *[other] { $path }: يجب أن يحتوي على { $limit } خاصية على الأقل
}
chat-action-schema-max-properties = { $limit ->
    [zero] { $path }: يجب ألا يحتوي على أي خاصية
    [one] { $path }: يجب أن يحتوي على خاصية واحدة على الأكثر
    [two] { $path }: يجب أن يحتوي على خاصيتين على الأكثر
    [few] { $path }: يجب أن يحتوي على { $limit } خصائص على الأكثر
    [many] { $path }: يجب أن يحتوي على { $limit } خاصية على الأكثر
   *[other] { $path }: يجب أن يحتوي على { $limit } خاصية على الأكثر
}
chat-action-schema-dependent-required = { $path }: الخاصية "{ $required }" مطلوبة عند تعيين "{ $property }"
chat-action-schema-property-name = { $path }: "{ $property }" ليس اسمًا مسموحًا به
chat-action-schema-not = { $path }: هذه قيمة غير مسموح بها هنا
chat-action-schema-unjudged = تعذّر التحقق من هذا التعديل بالكامل هنا. سيتحقق منه الخادم مرة أخرى عند الموافقة.
chat-action-schema-too-much-work = يحتاج التحقق من المخطط إلى أكثر من { $limit } خطوة؛ توقّف التحقق
chat-action-schema-remote-ref = { $path }: يشير المخطط إلى { $reference } خارج هذا المخطط، ولا يُجلب أبدًا
chat-action-schema-ref-cycle = { $path }: يشير المخطط إلى نفسه في حلقة ({ $reference })
chat-action-schema-unknown-dialect = المخطط مكتوب بإصدار من JSON Schema لا تعرفه هذه المحادثة ({ $dialect })
chat-action-schema-too-large = { $path }: قيمة "{ $keyword }" في المخطط أكبر من أن يُتحقق منها هنا
chat-action-schema-unsupported = { $path }: يستخدم المخطط "{ $keyword }"، وهي كلمة لا تتحقق منها هذه المحادثة
chat-action-schema-not-loaded = لم يُحمَّل التحقق من الوسائط بعد؛ سيتحقق منها الخادم
chat-action-schema-unreadable-pattern = { $path }: تعذّرت قراءة النمط { $pattern } هنا
chat-action-editor-label = الوسائط (JSON)
chat-action-variant-label = الصيغة
chat-action-fields-label = الحقول
chat-action-field-unset = (غير محدد)
chat-action-item-label = العنصر { $index }
chat-action-item-add = إضافة عنصر
chat-action-item-remove = إزالة العنصر { $index }
chat-action-list-empty = لا توجد عناصر
chat-action-diff-label = التغييرات على الاستدعاء المقترح
chat-action-diff-before = المقترح:
chat-action-diff-after = المعدّل:
chat-action-diff-unset = (غير محدد)
chat-demo-custom-approval = بطاقة مخصصة: { $tool } يطلب التشغيل
chat-demo-custom-question = بطاقة مخصصة: لدى المساعد سؤال
chat-demo-approve = سماح
chat-demo-deny = عدم السماح
chat-demo-skip = تخطي هذا
# The standalone page's settings (theme and language); each language is named in itself.
chat-settings-button = الإعدادات
chat-settings-theme = المظهر
chat-settings-theme-dark = داكن
chat-settings-theme-light = فاتح
chat-settings-language = اللغة
chat-settings-language-en = English
chat-settings-language-tr = Türkçe
chat-settings-language-ar = العربية
chat-action-schema-root = الوسائط
chat-action-free-text-other = شيء آخر (اختياري)

# Issue 13: answers the chat refused to send, and requests that changed while shown.
chat-error-refused-changed = تغيّر هذا الطلب. راجعه مرة أخرى قبل الإجابة.
chat-error-refused-edit-not-offered = لا يمكن تغيير الوسائط على هذا الخادم: وافق على الطلب كما اقتُرح أو ارفضه.
chat-error-refused-decline-not-offered = لا يمكن رفض هذا الطلب بهذه الطريقة: يقبل الخادم الرفض فقط بالشكل الذي تعرضه البطاقة.
chat-error-refused-read-only = لا يمكن الإجابة عن هذا الطلب هنا.
chat-error-refused-arguments = لم تُرسل الإجابة: الوسائط لا تطابق ما تقبله الأداة.
chat-error-refused-unanswered = لم تُرسل الإجابة: سؤال مطلوب بلا إجابة.
chat-error-refused-not-an-option = لم تُرسل الإجابة: ليست من الخيارات المعروضة.
chat-error-refused-not-open = لم يعد هذا الطلب بانتظار إجابة.
chat-error-refused-settled = تمت الإجابة عن هذا الطلب من قبل.
chat-error-refused-in-flight = إجابتك عن هذا الطلب في طريقها بالفعل.
chat-error-refused-busy = لا يزال المساعد يرد. يمكنك الإجابة عندما ينتهي الرد.
chat-action-changed = تغيّر هذا الطلب. راجعه مرة أخرى.
chat-action-status-waiting-elsewhere-question = بانتظار إجابة في تطبيق آخر
chat-action-announce-elsewhere = المساعد بانتظار إجابة في تطبيق آخر
chat-input-waiting-elsewhere = المساعد بانتظار إجابة في تطبيق آخر.

## Card stages, Checking status and the receipt (issue 14)
chat-action-stage-pending-approval = بانتظار الموافقة
chat-action-stage-waiting-for-answer = بانتظار إجابتك
chat-action-stage-sending = جارٍ الإرسال…
chat-action-stage-checking = جارٍ التحقق من الحالة
chat-action-stage-approved = تمت الموافقة
chat-action-stage-executing = جارٍ التنفيذ…
chat-action-stage-completed = اكتمل
chat-action-stage-failed = فشل
chat-action-stage-failed-with-message = فشل: { $message }
chat-action-stage-denied = مرفوض
chat-action-stage-answered = تمت الإجابة
chat-action-stage-answered-elsewhere = أُجيب في مكان آخر
chat-action-stage-skipped = تم التخطي
chat-action-stage-expired = انتهت المهلة
chat-action-stage-cancelled = أُلغي
chat-action-announce-stage = { $subject }: { $stage }
chat-action-checking-hint = أُرسلت إجابتك، لكن الاتصال انقطع قبل أن يؤكدها الخادم. جارٍ التحقق من وصولها…
chat-action-diff-version-label = ما تغيّر عن الاقتراح الأصلي
chat-action-receipt-by = صاحب القرار
chat-action-receipt-you = أنت
chat-action-receipt-at = متى
chat-action-receipt-version = الإصدار
chat-action-receipt-result = النتيجة
chat-action-receipt-error = الخطأ
chat-action-receipt-ran = ما نُفّذ مقارنةً بالاقتراح الأصلي
chat-action-approve-all = الموافقة على الكل ({ $count })
chat-action-deny-all = رفض الكل
chat-action-batch-hint = { $count } من استدعاءات هذا الرد بانتظار موافقتك.

## What an approval will do, to whom, with what (seed 004)
chat-operation-to = { $operation } إلى { $target }
chat-operation-in = { $operation } في { $target }
chat-action-parameters = المعاملات
chat-action-param-show-all = عرض الكل

## A card's transition history (seed 004)
chat-action-history = السجل
chat-action-step-proposed = اقتُرح
chat-action-step-edited = عُدّل
chat-action-step-approved = تمت الموافقة
chat-action-step-rejected = رُفض
chat-action-step-executing = بدأ التنفيذ
chat-action-step-completed = اكتمل التنفيذ
chat-action-step-failed = فشل التنفيذ
chat-action-step-expired = انتهت الصلاحية
chat-action-step-cancelled = أُلغي
chat-action-step-by = بواسطة { $name }
chat-action-step-version = (الإصدار { $n })

## Values the tool's policy keeps as proposed (seed 004)
chat-action-schema-read-only = { $path }: لا يمكن تغيير هذه القيمة؛ تُبقيها سياسة الأداة كما اقتُرحت
chat-error-refused-read-only-value = لم يُرسَل: التعديل يغيّر قيمة لا يمكن تغييرها.

# مربع الرسالة الذي يُرسم قبل وصول شيفرة المحادثة.
chat-shell-sending = سيُرسل فور جاهزية المحادثة…
chat-shell-load-failed = تعذّر تحميل المحادثة. رسالتك ما زالت هنا: انسخها، أو أعد تحميل الصفحة للمحاولة مجددًا.
