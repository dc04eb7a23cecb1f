# Türkçe. Ids match locales/en/chat.ftl exactly (tests/core/locales.rs).

chat-input-placeholder = Mesajınızı yazın...
chat-input-attach-files = Dosya ekle
chat-input-send = Mesaj gönder
chat-input-stop = Durdur
chat-input-remove-file = Dosyayı kaldır
chat-input-helper = Göndermek için Enter, yeni satır için Shift+Enter
chat-input-label = Mesaj
chat-input-waiting-for-answer = Asistan yukarıdaki soruya cevabınızı bekliyor.
chat-input-send-cancels-request = Mesaj göndermek açık isteği iptal eder.

chat-history-title = Sohbetler
chat-history-new-chat = Yeni Sohbet
chat-history-search-placeholder = Sohbetlerde ara...
chat-history-clear-search = Aramayı temizle
chat-history-no-conversations = Henüz sohbet yok
chat-history-no-matching-conversations = Eşleşen sohbet yok
chat-history-load-more = Daha fazla yükle
chat-history-loading = Yükleniyor...
chat-history-delete-conversation = Sohbeti sil
chat-history-close = Sohbet listesini kapat
chat-history-search-label = Sohbetlerde ara
chat-history-rename-conversation = Sohbeti yeniden adlandır
chat-history-rename-title = Sohbet başlığı

chat-actions-copy = Kopyala
chat-actions-copied = Kopyalandı!
chat-actions-regenerate = Yeniden oluştur
chat-actions-good-response = İyi yanıt
chat-actions-bad-response = Kötü yanıt
chat-actions-failed-to-copy = Kopyalanamadı
chat-actions-label = Mesaj işlemleri

chat-message-sources = Kaynaklar
chat-message-source = Kaynak { $index }
chat-message-show-less = Daha Az Göster
chat-message-show-all = Tümünü Göster ({ $count })
chat-message-tool-calls = Araç çağrıları
chat-message-user = Siz
chat-message-ai = YZ
# The default avatar badge of the person's messages (one letter).
chat-message-avatar-user = S
chat-message-error = Hata
chat-find-open = Sohbette bul
chat-find-label = Sohbette bul
chat-find-placeholder = Sohbette bul
chat-find-count = { $index } / { $count }
chat-find-none = Eşleşme yok
chat-find-previous = Önceki eşleşme
chat-find-next = Sonraki eşleşme
chat-find-close = Bulmayı kapat
chat-message-list-label = Sohbet mesajları
chat-message-list-load-older = Daha eski mesajları yükle
chat-message-list-loading-older = Daha eski mesajlar yükleniyor...
chat-message-thinking = Asistan düşünüyor
chat-message-interrupted = Yarıda kesildi
chat-message-failed = Görev başarısız oldu:
chat-message-retry = Tekrar dene

chat-markdown-code = Kod
chat-markdown-table = Tablo
chat-markdown-task = Görev
chat-markdown-image = Görsel: { $name }

chat-tool-call-view-details = Ayrıntıları göster
chat-tool-call-hide-details = Ayrıntıları gizle
chat-tool-call-older-calls = { $count ->
   *[other] { $count } eski çağrı
}
chat-tool-call-expand = Genişlet
chat-tool-call-collapse = Daralt
chat-tool-call-input = Girdi
chat-tool-call-output = Çıktı
chat-tool-call-executing = Çalıştırılıyor...
chat-tool-call-completed = Tamamlandı
chat-tool-call-duration = { $seconds } sn
chat-tool-call-previous-steps = { $count ->
   *[other] { $count } önceki adım
}
chat-tool-call-unknown-tool = Bilinmeyen Araç

chat-header-menu = Menüyü aç
chat-header-select-agent = Asistan seç
chat-header-change-agent = Asistanı değiştir

chat-empty-title = Bir sohbet başlatın
chat-empty-subtitle = Başlamak için aşağıya mesajınızı yazın
chat-empty-start-typing = Yazmaya başlayın...

chat-loading-conversation = Sohbet yükleniyor...

chat-error-dismiss = Kapat
chat-error-load-conversation-failed = Sohbet yüklenemedi
chat-error-load-conversations-failed = Sohbetler yüklenemedi
chat-error-load-more-failed = Daha fazla sohbet yüklenemedi
chat-error-load-older-messages-failed = Daha eski mesajlar yüklenemedi
chat-error-delete-conversation-failed = Sohbet silinemedi
chat-error-rename-conversation-failed = Sohbet yeniden adlandırılamadı
chat-error-file-request-failed = Dosya yüklenemedi, okunamadı veya silinemedi
chat-error-client-not-initialized = İstemci başlatılmadı
chat-error-send-failed = Mesaj gönderilemedi
chat-error-retry = Tekrar dene
chat-error-network = Asistan sunucusuna ulaşılamadı. Bağlantınızı kontrol edip tekrar deneyin.
chat-error-other-origin = Sunucu bunu başka bir adrese yönlendirmek istedi, bu yüzden gönderilmedi. Yazdıklarınız bu siteden çıkmadı.
chat-error-stream-cut = Yanıt bitmeden bağlantı koptu.
chat-error-storage-load = Kayıtlı konuşmalar yüklenemedi. Yenileri sayfa kapanana kadar saklanır.
chat-error-chunk = Sohbetin bir bölümü yüklenemedi. Bağlantıyı kontrol edip yeniden deneyin.
chat-chunk-loading = Yükleniyor...
chat-chunk-failed = Sohbetin bu bölümü yüklenemedi.
chat-error-storage-save = Bu konuşma bu tarayıcıya kaydedilemedi: depolama alanı dolu ya da engellenmiş.
chat-error-storage-unreadable = { $count ->
    [one] Kayıtlı bir konuşma okunamadı ve atlandı.
   *[other] Kayıtlı { $count } konuşma okunamadı ve atlandı.
}
chat-error-bad-response = Sunucunun gönderdiği yanıt okunamadı.
chat-error-request-failed = İstek başarısız oldu
chat-error-no-agent = Bu sunucuda kullanılabilir asistan yok.

chat-error-code-action-expired = Bu isteğin süresi doldu.
chat-error-code-action-cancelled = Bu istek iptal edildi.
chat-error-code-action-not-pending = Bu istek zaten yanıtlandı.
chat-error-code-action-forbidden = Bu isteği yalnızca sohbeti başlatan kişi yanıtlayabilir.
chat-error-code-action-pending = Asistan yukarıdaki soruya cevabınızı bekliyor. Yeni mesaj göndermeden önce yanıtlayın.
chat-error-code-pending-action = Asistan yukarıdaki soruya cevabınızı bekliyor. Yeni mesaj göndermeden önce yanıtlayın.
chat-error-code-conversation-busy = Asistan bu sohbet üzerinde hâlâ çalışıyor. Biraz sonra tekrar deneyin.
chat-error-code-rate-limited = Çok fazla istek. Biraz bekleyip tekrar deneyin.
chat-error-rate-limited-seconds = Çok fazla istek. { $seconds } saniye sonra tekrar deneyin.
chat-error-rate-limited-minutes = Çok fazla istek. { $minutes } dakika sonra tekrar deneyin.
chat-error-code-quota-exceeded = Kullanım kotasına ulaşıldı.
chat-error-code-message-too-long = Mesaj çok uzun.
chat-error-code-guardrail-blocked = İstek bir güvenlik kuralı tarafından engellendi.
chat-error-code-file-too-large = Bir dosya çok büyük.
chat-error-code-unsupported-file-type = Bu dosya türü desteklenmiyor.
chat-error-code-attachments-disabled = Bu asistan için ekler kapalı.
chat-error-code-action-version-conflict = Bu istek bu arada değişti. Yeniden yüklendi.
chat-error-server-failed = Sunucu bir hata bildirdi.
chat-error-task-failed = Ajan görevi tamamlamadı.
chat-error-task-canceled = Görev iptal edildi.
chat-error-refused-does-not-fit = Gönderilmedi: yanıt istenene uymuyor.

chat-file-too-large = { $name } çok büyük (en fazla { $max })
chat-file-too-many = En fazla { $max } dosya ekleyebilirsiniz
chat-file-invalid-type = { $name } izin verilen bir dosya türü değil
chat-file-upload-failed = Yükleme başarısız oldu
chat-file-download = İndir
chat-file-read-failed = { $name } okunamadı
chat-file-remove = { $name } dosyasını kaldır
chat-file-attachments = Ekler
chat-file-reading = { $name } okunuyor…

chat-time-just-now = Az önce
chat-time-minutes-ago = { $count } dk önce
chat-time-hours-ago = { $count } sa önce
chat-time-days-ago = { $count } gün önce

chat-theme-toggle-light = Açık temaya geç
chat-theme-toggle-dark = Koyu temaya geç

chat-action-details = Ayrıntılar
chat-action-side-effects = Yan etkiler
chat-action-approve = Onayla
chat-action-deny = Reddet
chat-action-add-reason = Gerekçe ekle
chat-action-remove-reason = Gerekçeyi kaldır
chat-action-reason-label = Gerekçe (isteğe bağlı)
chat-action-remember = Bu sohbette bu araç için tekrar sorma
chat-action-edit-arguments = Argümanları düzenle
chat-action-reset-arguments = Argümanları sıfırla
chat-action-arguments-edited = Argümanlar düzenlendi
chat-action-preview = Önizleme
chat-action-send = Gönder
chat-action-skip = Atla
chat-action-required = *
chat-action-free-text-label = Cevabınız
chat-action-approval-label = Onay gerekiyor: { $tool }
chat-action-question-label = Asistandan soru
chat-action-sending = Gönderiliyor...
chat-action-expires-hours = { $n } saat içinde sona eriyor
chat-action-expires-minutes = { $n } dakika içinde sona eriyor
chat-action-expires-seconds = { $n } saniye içinde sona eriyor
chat-action-status-approved = Onaylandı
chat-action-status-approved-edited = Düzenlenmiş argümanlarla onaylandı
chat-action-status-denied = Reddedildi
chat-action-status-denied-with-reason = Reddedildi - { $reason }
chat-action-status-answered = Yanıtlandı
chat-action-status-skipped = Atlandı
chat-action-status-expired = Süresi doldu
chat-action-status-cancelled = İptal edildi
chat-action-status-remembered = Bu sohbet için hatırlandı
chat-action-status-waiting-elsewhere = Başka bir uygulamada onay bekleniyor
chat-action-announce-approval = Asistan onayınızı istiyor: { $tool }
chat-action-announce-question = Asistanın bir sorusu var
chat-action-schema-invalid-json = Geçerli JSON değil (satır { $line }, sütun { $column })
chat-action-schema-not-object = Argümanlar bir JSON nesnesi olmalı
chat-action-schema-type = { $path }: { $expected } olmalı
chat-action-schema-enum = { $path }: şunlardan biri olmalı: { $allowed }
chat-action-schema-const = { $path }: { $expected } olmalı
chat-action-schema-required = { $path }: "{ $property }" zorunlu
chat-action-schema-additional-properties = { $path }: "{ $property }" izin verilmiyor
chat-action-schema-minimum = { $path }: en az { $limit } olmalı
chat-action-schema-maximum = { $path }: en fazla { $limit } olmalı
chat-action-schema-exclusive-minimum = { $path }: { $limit } değerinden büyük olmalı
chat-action-schema-exclusive-maximum = { $path }: { $limit } değerinden küçük olmalı
chat-action-schema-min-length = { $path }: en az { $limit } karakter olmalı
chat-action-schema-max-length = { $path }: en fazla { $limit } karakter olmalı
chat-action-schema-pattern = { $path }: { $pattern } kalıbına uymalı
chat-action-schema-min-items = { $path }: en az { $limit } öğe olmalı
chat-action-schema-max-items = { $path }: en fazla { $limit } öğe olmalı
chat-action-schema-any-of = { $path }: şunlardan birine uymalı: { $variants }
chat-action-schema-one-of = { $path }: şunlardan yalnızca birine uymalı: { $variants } ({ $matched } tanesine uyuyor)
chat-action-schema-one-of-none = { $path }: şunlardan birine uymalı: { $variants }
chat-action-schema-too-deep = { $path }: çok derin iç içe (en fazla { $limit } düzey)
chat-action-schema-multiple-of = { $path }: { $divisor } sayısının katı olmalı
chat-action-schema-format = { $path }: geçerli bir { $format } olmalı
chat-action-schema-unique-items = { $path }: { $first }. ve { $second }. öğeler aynı; her öğe farklı olmalı
chat-action-schema-min-contains = { $path }: listenin içermesi gerekene en az { $limit } öğe uymalı
chat-action-schema-max-contains = { $path }: listenin içerdiğine en fazla { $limit } öğe uyabilir
chat-action-schema-min-properties = { $path }: en az { $limit } özellik olmalı
chat-action-schema-max-properties = { $path }: en fazla { $limit } özellik olmalı
chat-action-schema-dependent-required = { $path }: "{ $property }" ayarlandığında "{ $required }" zorunlu
chat-action-schema-property-name = { $path }: "{ $property }" izin verilen bir ad değil
chat-action-schema-not = { $path }: burada izin verilmeyen bir değer
chat-action-schema-unjudged = Bu düzenleme burada tam olarak denetlenemedi. Onayladığınızda sunucu yeniden denetler.
chat-action-schema-too-much-work = Şemanın denetimi { $limit } adımdan fazlasını gerektiriyor; denetim durduruldu
chat-action-schema-remote-ref = { $path }: şema, bu şemanın dışındaki { $reference } adresine başvuruyor; bu adres hiçbir zaman indirilmez
chat-action-schema-ref-cycle = { $path }: şema bir döngü içinde kendine başvuruyor ({ $reference })
chat-action-schema-unknown-dialect = Şema, bu sohbetin tanımadığı bir JSON Schema sürümüyle yazılmış ({ $dialect })
chat-action-schema-too-large = { $path }: şemanın "{ $keyword }" değeri burada denetlenemeyecek kadar büyük
chat-action-schema-unsupported = { $path }: şema, bu sohbetin denetlemediği "{ $keyword }" anahtar sözcüğünü kullanıyor
chat-action-schema-not-loaded = Argümanların denetimi henüz yüklenmedi; sunucu onları denetler
chat-action-schema-unreadable-pattern = { $path }: { $pattern } kalıbı burada okunamıyor
chat-action-editor-label = Argümanlar (JSON)
chat-action-variant-label = Seçenek
chat-action-fields-label = Alanlar
chat-action-field-unset = (ayarlanmadı)
chat-action-item-label = Öğe { $index }
chat-action-item-add = Öğe ekle
chat-action-item-remove = { $index }. öğeyi kaldır
chat-action-list-empty = Öğe yok
chat-action-diff-label = Önerilen çağrıdaki değişiklikler
chat-action-diff-before = Önerilen:
chat-action-diff-after = Düzenlenen:
chat-action-diff-unset = (ayarlanmadı)
chat-demo-custom-approval = Özel kart: { $tool } çalışmak istiyor
chat-demo-custom-question = Özel kart: asistanın bir sorusu var
chat-demo-approve = İzin ver
chat-demo-deny = Reddet
chat-demo-skip = Atla
# The standalone page's settings (theme and language); each language is named in itself.
chat-settings-button = Ayarlar
chat-settings-theme = Tema
chat-settings-theme-dark = Koyu
chat-settings-theme-light = Açık
chat-settings-language = Dil
chat-settings-language-en = English
chat-settings-language-tr = Türkçe
chat-settings-language-ar = العربية
chat-action-schema-root = Argümanlar
chat-action-free-text-other = Başka bir şey (isteğe bağlı)

# Issue 13: answers the chat refused to send, and requests that changed while shown.
chat-error-refused-changed = Bu istek değişti. Yanıtlamadan önce yeniden inceleyin.
chat-error-refused-edit-not-offered = Bu sunucuda argümanlar değiştirilemez: isteği önerildiği gibi onaylayın ya da reddedin.
chat-error-refused-decline-not-offered = Bu istek bu şekilde reddedilemez: sunucu reddi yalnızca kartın sunduğu biçimde kabul eder.
chat-error-refused-read-only = Bu istek burada yanıtlanamaz.
chat-error-refused-arguments = Yanıt gönderilmedi: bağımsız değişkenler aracın kabul ettikleriyle uyuşmuyor.
chat-error-refused-unanswered = Yanıt gönderilmedi: zorunlu bir soru yanıtsız.
chat-error-refused-not-an-option = Yanıt gönderilmedi: sunulan seçeneklerden biri değil.
chat-error-refused-not-open = Bu istek artık yanıt beklemiyor.
chat-error-refused-settled = Bu istek zaten yanıtlandı.
chat-error-refused-in-flight = Bu isteğe verdiğiniz yanıt zaten yolda.
chat-error-refused-busy = Asistan hâlâ yanıt veriyor. Yanıt bitince cevaplayabilirsiniz.
chat-action-changed = Bu istek değişti. Yeniden inceleyin.
chat-action-status-waiting-elsewhere-question = Başka bir uygulamada yanıt bekleniyor
chat-action-announce-elsewhere = Asistan başka bir uygulamada yanıt bekliyor
chat-input-waiting-elsewhere = Asistan başka bir uygulamada yanıt bekliyor.

## Card stages, Checking status and the receipt (issue 14)
chat-action-stage-pending-approval = Onay bekliyor
chat-action-stage-waiting-for-answer = Yanıtınızı bekliyor
chat-action-stage-sending = Gönderiliyor…
chat-action-stage-checking = Durum denetleniyor
chat-action-stage-approved = Onaylandı
chat-action-stage-executing = Yürütülüyor…
chat-action-stage-completed = Tamamlandı
chat-action-stage-failed = Başarısız
chat-action-stage-failed-with-message = Başarısız: { $message }
chat-action-stage-denied = Reddedildi
chat-action-stage-answered = Yanıtlandı
chat-action-stage-answered-elsewhere = Başka yerde yanıtlandı
chat-action-stage-skipped = Atlandı
chat-action-stage-expired = Süresi doldu
chat-action-stage-cancelled = İptal edildi
chat-action-announce-stage = { $subject }: { $stage }
chat-action-checking-hint = Yanıtınız gönderildi, ancak sunucu onaylamadan bağlantı koptu. Ulaşıp ulaşmadığı denetleniyor…
chat-action-diff-version-label = İlk öneriden değişenler
chat-action-receipt-by = Karar veren
chat-action-receipt-you = Siz
chat-action-receipt-at = Ne zaman
chat-action-receipt-version = Sürüm
chat-action-receipt-result = Sonuç
chat-action-receipt-error = Hata
chat-action-receipt-ran = Çalıştırılan, ilk öneriye göre
chat-action-approve-all = Tümünü onayla ({ $count })
chat-action-deny-all = Tümünü reddet
chat-action-batch-hint = Bu yanıtın { $count } çağrısı onayınızı bekliyor.

## What an approval will do, to whom, with what (seed 004)
chat-operation-to = { $operation } (alıcı: { $target })
chat-operation-in = { $operation } (konum: { $target })
chat-action-parameters = Parametreler
chat-action-param-show-all = Tümünü göster

## A card's transition history (seed 004)
chat-action-history = Geçmiş
chat-action-step-proposed = Önerildi
chat-action-step-edited = Değiştirildi
chat-action-step-approved = Onaylandı
chat-action-step-rejected = Reddedildi
chat-action-step-executing = Çalıştırma başladı
chat-action-step-completed = Çalıştırma tamamlandı
chat-action-step-failed = Çalıştırma başarısız oldu
chat-action-step-expired = Süresi doldu
chat-action-step-cancelled = İptal edildi
chat-action-step-by = karar veren: { $name }
chat-action-step-version = (sürüm { $n })

## Values the tool's policy keeps as proposed (seed 004)
chat-action-schema-read-only = { $path }: bu değer değiştirilemez; aracın kuralı onu önerildiği gibi tutar
chat-error-refused-read-only-value = Gönderilmedi: düzenleme, değiştirilemeyen bir değeri değiştiriyor.

# Sohbetin kodu gelmeden çizilen mesaj kutusu.
chat-shell-sending = Sohbet hazır olur olmaz gönderilecek…
chat-shell-load-failed = Sohbet yüklenemedi. Mesajınız burada duruyor: kopyalayın ya da yeniden denemek için sayfayı yenileyin.
