package vtlab.sut.webflux

import kotlinx.coroutines.delay
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/**
 * Seed 004's WebFlux + Kotlin coroutines handler: a suspend function whose wait is kotlinx.coroutines' delay, so the
 * coroutine is suspended (no thread held) and resumed by the coroutine timer when the time is up.
 */
@RestController
class CoroutineController {

    @GetMapping("/co/delay")
    suspend fun coroutineDelay(@RequestParam(name = "ms", defaultValue = "100") ms: Long): String {
        ReactiveController.checkMs(ms)
        delay(ms) // kotlinx.coroutines.delay: suspends, no thread held
        return "coroutine delayed $ms ms\n"
    }
}
